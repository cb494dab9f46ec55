import HelperThreads

/// A second thread for the pyramid levels of a split scan (`HOGWorkspace(threads: 2)`).
///
/// Handing it a part of a scan stores the part's parameters and wakes its ``HelperThread``, so a
/// split scan allocates nothing. The thread ends when the owning workspace calls `stop()`.
///
/// `@unchecked Sendable`: the part's fields are written by the owner before `begin` and read by
/// the thread after; the thread's workspace is written by the thread and read by the owner after
/// `wait`. ``HelperThread``'s semaphores order each pair, and the owner touches neither in between.
final class ScanHelper: @unchecked Sendable {
    /// The helper thread's buffers.
    let workspace = HOGWorkspace()
    private var thread: HelperThread!
    // The part being scanned: written before the thread is woken, read by it after.
    private var detector: FrontalFaceDetector?
    private var image: UnsafePointer<UInt8>?
    private var width = 0, height = 0
    private var levels = 0..<0
    private var adjustThreshold = 0.0

    init() {
        thread = HelperThread(name: "facewatch.hog") { [unowned self] in self.scanPart() }
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
        thread.begin()
    }

    /// Waits for the part started by `begin`.
    func wait() {
        thread.wait()
        detector = nil
        image = nil
    }

    private func scanPart() {
        if let detector, let image {
            detector.scanLevels(image, width: width, height: height, levels: levels,
                                adjustThreshold: adjustThreshold, workspace: workspace)
        }
    }

    /// Ends the thread (called by the owning workspace when it is released).
    func stop() {
        thread.stop()
    }
}
