import Foundation

/// A progress line (frames done, FPS, ETA) on standard error, redrawn at most four times a
/// second, and only when standard error is a terminal: never on standard output (`replay`,
/// `bench`).
public struct ProgressLine {
    public let total: Int
    public let label: String
    private let enabled = isatty(STDERR_FILENO) == 1
    private let started = MonotonicClock.now()
    private var lastDraw = 0.0
    private var drawn = false

    public init(total: Int, label: String) {
        self.total = total
        self.label = label
    }

    /// Shows `done` of `total` frames (at most four times a second, and always the last).
    public mutating func update(_ done: Int) {
        guard enabled else { return }
        let now = MonotonicClock.now()
        guard now - lastDraw >= 0.25 || done == total else { return }
        lastDraw = now
        drawn = true
        let elapsed = max(now - started, 1e-9)
        let fps = Double(done) / elapsed
        let eta = fps > 0 ? Double(max(total - done, 0)) / fps : 0
        let text = String(format: "\r%@: %d/%d frames, %.0f FPS, ETA %.1f s ", label, done, total, fps, eta)
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Ends the line so that what follows starts on a fresh one.
    public func finish() {
        if drawn { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
