import Detection
import Dispatch
import FaceCore
import HelperThreads
import Imaging
import Landmarks

/// A second thread for a tracked face's window check (a scan of the area around it), so that
/// ``FaceTracker`` can fit the face's landmarks on the calling thread meanwhile. A check depends
/// only on the image, the box and the roll, so its answer is that of a check on the calling
/// thread. The fits stay on the calling thread, beside the model's split nodes in its core's
/// caches; the check's working set is small.
///
/// The worker has its own copy of the detector, used only between `begin` and `wait`; the copies
/// may share buffers (a HOG workspace), which the tracker never uses meanwhile. Handing it a
/// check stores the image and box, so a check allocates nothing. The thread ends with `stop()`.
///
/// `@unchecked Sendable`: the check's fields are written by the owner before `begin` and read by
/// the thread after, and written by the thread before `wait` returns and read by the owner after;
/// ``HelperThread``'s semaphores order each pair, and the owner never touches them in between.
final class CheckWorker: @unchecked Sendable {
    private var detector: any FaceDetector
    private var thread: HelperThread!
    // The check under way: written before the thread is woken and read by it after; its results
    // are read after `wait`.
    private var image = GrayImage(width: 0, height: 0)
    private var box = FaceBox(x: 0, y: 0, width: 0, height: 0)
    private var roll = 0.0
    private var confirmed = false
    private var seconds = 0.0

    init(detector: any FaceDetector) {
        self.detector = detector
        thread = HelperThread(name: "facewatch.check") { [unowned self] in self.check() }
    }

    /// Starts checking that a face is in `box`, turned by `roll`, in `image`.
    func begin(_ image: GrayImage, box: FaceBox, roll: Double) {
        self.image = image
        self.box = box
        self.roll = roll
        thread.begin()
    }

    /// Waits for the check started by `begin` and returns its answer and its duration in seconds.
    func wait() -> (confirmed: Bool, seconds: Double) {
        thread.wait()
        image = GrayImage(width: 0, height: 0)  // the frame's pixels are the caller's again
        return (confirmed, seconds)
    }

    private func check() {
        let began = DispatchTime.now().uptimeNanoseconds
        confirmed = detector.confirm(box, roll: roll, in: image)
        seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
    }

    /// Ends the thread (called by the tracker that owns the worker when it is released).
    func stop() {
        thread.stop()
    }
}
