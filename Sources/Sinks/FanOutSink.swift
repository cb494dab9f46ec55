import Events

/// Writes every event to a primary sink (standard output), whose failure ends the run, and to
/// others (the socket server, the web server's log, metrics, MQTT) that never fail.
public final class FanOutSink: EventSink {
    public let primary: EventSink
    public let others: [EventSink]

    public init(primary: EventSink, others: [EventSink]) {
        self.primary = primary
        self.others = others
    }

    public func write(_ event: Event) throws {
        for sink in others { try? sink.write(event) }
        try primary.write(event)
    }
}
