/// The messages waiting for a broker, bounded: what is queued plus what was handed to the
/// client but not yet acknowledged never exceeds `limit`. A message offered past the bound is
/// dropped and counted in `lost`; nothing below the bound is ever dropped.
public struct OutboundQueue<Message>: Sendable where Message: Sendable {
    public let limit: Int
    /// Messages dropped because the bound was reached.
    public private(set) var lost = 0
    /// Handed to the client, not yet acknowledged.
    public private(set) var inFlight = 0
    private var messages: [Message] = []
    private var head = 0

    public init(limit: Int) {
        precondition(limit > 0)
        self.limit = limit
    }

    /// Messages waiting to be handed over.
    public var queued: Int { messages.count - head }

    /// Queues a message; false (and one more lost) when the bound is reached.
    @discardableResult
    public mutating func offer(_ message: Message) -> Bool {
        guard queued + inFlight < limit else {
            lost += 1
            return false
        }
        messages.append(message)
        return true
    }

    /// The oldest waiting message, now counted as in flight.
    public mutating func take() -> Message? {
        guard head < messages.count else { return nil }
        let message = messages[head]
        head += 1
        inFlight += 1
        if head > 1024 && head * 2 > messages.count {
            messages.removeFirst(head)
            head = 0
        }
        return message
    }

    /// The client refused the message just taken: it goes back to the front.
    public mutating func putBack(_ message: Message) {
        inFlight -= 1
        if head > 0 {
            head -= 1
            messages[head] = message
        } else {
            messages.insert(message, at: 0)
        }
    }

    /// The broker acknowledged `count` messages in flight.
    public mutating func acknowledged(_ count: Int) {
        inFlight = max(0, inFlight - count)
    }
}
