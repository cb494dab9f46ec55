/// The figures of a `stats` event.
public struct Stats: Sendable, Equatable {
    /// Frames per second arriving from the source and processed, over the last period.
    public var fpsIn: Double
    public var fpsOut: Double
    /// Frames dropped in the last period.
    public var dropped: Int
    /// Capture-to-event latency in milliseconds, median and 95th percentile (written as
    /// `latency_ms`: {p50, p95}).
    public var latencyP50: Double
    public var latencyP95: Double

    public init(fpsIn: Double, fpsOut: Double, dropped: Int, latencyP50: Double, latencyP95: Double) {
        self.fpsIn = fpsIn
        self.fpsOut = fpsOut
        self.dropped = dropped
        self.latencyP50 = latencyP50
        self.latencyP95 = latencyP95
    }
}
