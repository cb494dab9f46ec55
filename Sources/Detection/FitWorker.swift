import Dispatch
import HelperThreads
import Imaging
import Landmarks

/// A second thread for a tracked face's landmark fit, so that ``FaceTracker`` can run the
/// face's window check (a scan of the area around it) on the calling thread meanwhile. A fit
/// depends only on the image and the box, so the points are those of a fit on the calling thread.
///
/// Handing it a fit stores the image and box and moves the face's shape in (and back out when
/// done), so a fit allocates nothing. The thread ends with `stop()`.
final class FitWorker: @unchecked Sendable {
    private let predictor: ShapePredictor
    private var thread: HelperThread!
    // The fit under way: written before the thread is woken and read by it after; its results
    // are read after `wait`.
    private var image = GrayImage(width: 0, height: 0)
    private var box = FaceBox(x: 0, y: 0, width: 0, height: 0)
    private var shape = FaceShape(points: [])
    private var seconds = 0.0

    init(predictor: ShapePredictor) {
        self.predictor = predictor
        thread = HelperThread(name: "facewatch.fit") { [unowned self] in self.fit() }
    }

    /// Starts fitting the face in `box` into `shape`, whose storage the worker holds until `wait`.
    func begin(_ image: GrayImage, box: FaceBox, shape: inout FaceShape) {
        self.image = image
        self.box = box
        swap(&self.shape, &shape)
        thread.begin()
    }

    /// Waits for the fit started by `begin`, puts the points into `shape` and returns the fit's
    /// duration in seconds.
    func wait(into shape: inout FaceShape) -> Double {
        thread.wait()
        swap(&self.shape, &shape)
        image = GrayImage(width: 0, height: 0)  // the frame's pixels are the caller's again
        return seconds
    }

    private func fit() {
        let began = DispatchTime.now().uptimeNanoseconds
        predictor.fit(image, box: box, into: &shape)
        seconds = Double(DispatchTime.now().uptimeNanoseconds - began) / 1e9
    }

    /// Ends the thread (called by the tracker that owns the worker when it is released).
    func stop() {
        thread.stop()
    }
}
