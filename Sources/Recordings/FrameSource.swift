/// Where frames come from: a camera, or a recording being replayed. The pipeline reads every
/// source the same way, so tests that replay recordings exercise the real pipeline.
public protocol FrameSource {
    /// The next frame, or nil at the end of the stream.
    ///
    /// A `FrameError` means that one frame is unusable (its bytes are missing or damaged);
    /// the caller reports it and calls again for the next frame. Any other error ends the stream.
    mutating func nextFrame() throws -> Frame?
}

/// One unusable frame in an otherwise readable stream.
public struct FrameError: Error, Equatable, CustomStringConvertible {
    public let index: Int
    public let t: Double
    public let problem: String

    public init(index: Int, t: Double, problem: String) {
        self.index = index
        self.t = t
        self.problem = problem
    }

    public var description: String { "frame \(index): \(problem)" }
}
