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
    /// Events the MQTT publisher dropped since the start because its queue was full while the
    /// broker was away (written as `mqtt_lost` only when publishing to a broker).
    public var mqttLost: Int?

    public init(fpsIn: Double, fpsOut: Double, dropped: Int, latencyP50: Double, latencyP95: Double, mqttLost: Int? = nil) {
        self.mqttLost = mqttLost
        self.fpsIn = fpsIn
        self.fpsOut = fpsOut
        self.dropped = dropped
        self.latencyP50 = latencyP50
        self.latencyP95 = latencyP95
    }
}
