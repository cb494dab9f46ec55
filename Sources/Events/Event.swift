/// One line of the event stream: when (`t`, stream seconds), which frame, and what.
public struct Event: Sendable, Equatable {
    public var t: Double
    public var frame: Int
    public var payload: EventPayload

    public init(t: Double, frame: Int, _ payload: EventPayload) {
        self.t = t
        self.frame = frame
        self.payload = payload
    }

    public var type: EventType { payload.type }
}
