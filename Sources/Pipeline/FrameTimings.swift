/// Where the last processed frame's time went, in seconds, stage by stage (for `facewatch bench`).
public struct FrameTimings: Sendable, Equatable {
    /// JPEG to gray.
    public var decode = 0.0
    /// Full-frame face detection (0 on frames where tracking sufficed).
    public var detect = 0.0
    /// Checking that tracked faces are still faces.
    public var track = 0.0
    /// Landmark fits of the tracked faces.
    public var landmarks = 0.0
    /// Measures and state machines of every face, and building the events.
    public var expressions = 0.0

    public init() {}

    public var total: Double { decode + detect + track + landmarks + expressions }
}
