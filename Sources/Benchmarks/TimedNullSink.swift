import Events
import Pipeline

/// Encodes every event as the writer would, keeps nothing, and times itself.
final class TimedNullSink: EventSink {
    private let encoder = EventEncoder()
    private var buffer: [UInt8] = []
    var seconds = 0.0

    func write(_ event: Event) throws {
        let start = MonotonicClock.now()
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        seconds += MonotonicClock.now() - start
    }
}
