import Events

/// An event sink that hands every event to an `AsyncThrowingStream`'s continuation.
final class StreamSink: EventSink, Sendable {
    let continuation: AsyncThrowingStream<Event, Error>.Continuation

    init(continuation: AsyncThrowingStream<Event, Error>.Continuation) {
        self.continuation = continuation
    }

    func write(_ event: Event) throws {
        continuation.yield(event)
    }
}
