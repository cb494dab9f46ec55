import Events
import Pipeline

/// Turns an event stream into intervals: a `blink` or `wink` line is one interval
/// (`start` … `start + duration`), `smile`, `mouth_open` and `eyes_closed` start/end pairs are
/// one each. An interval still open when the stream ends is closed at the last event's time.
public struct IntervalCollector {
    public private(set) var intervals: [LabeledInterval] = []
    private var open: [String: Double] = [:]
    private var lastT = 0.0

    public init() {}

    public mutating func add(_ event: Event) {
        lastT = max(lastT, event.t)
        switch event.payload {
        case .blink(_, let start, let duration):
            intervals.append(LabeledInterval(type: "blink", start: start, end: start + duration))
        case .wink(_, _, let start, let duration):
            intervals.append(LabeledInterval(type: "wink", start: start, end: start + duration))
        case .eyesClosed(_, let state, let start, let duration):
            if state == .end { intervals.append(LabeledInterval(type: "eyes_closed", start: start, end: start + duration)) }
        case .smile(_, let state, _):
            toggle("smile", state, at: event.t)
        case .mouthOpen(_, let state, _):
            toggle("mouth_open", state, at: event.t)
        default:
            break
        }
    }

    private mutating func toggle(_ type: String, _ state: EventState, at t: Double) {
        if state == .start {
            open[type] = t
        } else if let start = open.removeValue(forKey: type) {
            intervals.append(LabeledInterval(type: type, start: start, end: t))
        }
    }

    /// The intervals, with any still open closed at the last event's time.
    public func finished() -> [LabeledInterval] {
        intervals + open.sorted { $0.key < $1.key }.map { LabeledInterval(type: $0.key, start: $0.value, end: lastT) }
    }
}
