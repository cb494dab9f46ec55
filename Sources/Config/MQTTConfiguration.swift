/// The `mqtt` section of config.json: publishing events to a broker (`--mqtt`).
public struct MQTTConfiguration: Sendable, Equatable {
    /// `mqtt://host:port/topic` (nil: no broker).
    public var url: String?
    /// MQTT quality of service, 0–2. 1 (at least once) survives a broker restart.
    public var qos = 1
    /// Whether the broker keeps the last event for new subscribers.
    public var retain = false
    /// Events held while the broker is away (queued plus unacknowledged); past this, new events
    /// are dropped and counted (`mqtt_lost` in `stats`).
    public var queue = 1000
    /// Longest wait between reconnection attempts, seconds (the wait doubles from 1 s).
    public var reconnectMax = 30.0

    public init() {}
}
