/// Which per-frame lines the processor writes besides the expression events.
public struct OutputOptions: Sendable, Equatable {
    /// A `nose` line for every face in every processed frame.
    public var nose: Bool
    /// A `frame` line for every processed frame.
    public var frames: Bool
    /// The 68 landmarks in `frame` lines (implies `frames`).
    public var landmarks: Bool

    public init(nose: Bool = true, frames: Bool = false, landmarks: Bool = false) {
        self.nose = nose
        self.frames = frames || landmarks
        self.landmarks = landmarks
    }
}
