import Foundation

/// A second thread for the pyramid levels of a split scan (`HOGWorkspace(threads: 2)`).
///
/// The thread is started once and then waits on a semaphore; handing it a part of a scan stores
/// the part's parameters and wakes it, so a split scan allocates nothing. The thread ends when
/// the helper is released.
final class ScanHelper: @unchecked Sendable {
    /// The helper thread's buffers.
    let workspace = HOGWorkspace()
    private let start = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
    // The part being scanned: written before `start` is signalled, read by the thread after.
    private var detector: FrontalFaceDetector?
    private var image: UnsafePointer<UInt8>?
    private var width = 0, height = 0
    private var levels = 0..<0
    private var adjustThreshold = 0.0
    private var stopping = false

    init() {
        // A started thread keeps itself alive until `serve` returns.
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = "facewatch.hog"
        thread.start()
    }

    /// Starts scanning `levels` of `image` into `workspace.candidates`; `wait()` returns when done.
    func begin(_ detector: FrontalFaceDetector, _ image: UnsafePointer<UInt8>, width: Int, height: Int,
               levels: Range<Int>, adjustThreshold: Double) {
        self.detector = detector
        self.image = image
        self.width = width
        self.height = height
        self.levels = levels
        self.adjustThreshold = adjustThreshold
        start.signal()
    }

    /// Waits for the part started by `begin`.
    func wait() {
        done.wait()
        detector = nil
        image = nil
    }

    private func serve() {
        while true {
            start.wait()
            if stopping { break }
            if let detector, let image {
                detector.scanLevels(image, width: width, height: height, levels: levels,
                                    adjustThreshold: adjustThreshold, workspace: workspace)
            }
            done.signal()
        }
        done.signal()
    }

    /// Ends the thread (called by the owning workspace when it is released).
    func stop() {
        stopping = true
        start.signal()
        done.wait()
    }
}
