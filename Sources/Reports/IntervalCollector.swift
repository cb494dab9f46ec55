import Events
import Pipeline

/// Turns an event stream into intervals: a `blink` or `wink` line is one interval
/// (`start` … `start + duration`), `smile`, `mouth_open` and `eyes_closed` start/end pairs are
/// one each, paired per face (two faces smiling at once are two intervals). An interval still open
/// when the stream ends is closed at the last event's time.
public struct IntervalCollector {
    public private(set) var intervals: [LabeledInterval] = []
    private var open: [Key: Double] = [:]

    private struct Key: Hashable {
        var type: String
        var face: Int
    }
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
        case .smile(let face, let state, _):
            toggle(Key(type: "smile", face: face), state, at: event.t)
        case .mouthOpen(let face, let state, _):
            toggle(Key(type: "mouth_open", face: face), state, at: event.t)
        default:
            break
        }
    }

    private mutating func toggle(_ key: Key, _ state: EventState, at t: Double) {
        if state == .start {
            open[key] = t
        } else if let start = open.removeValue(forKey: key) {
            intervals.append(LabeledInterval(type: key.type, start: start, end: t))
        }
    }

    /// The intervals, with any still open closed at the last event's time.
    public func finished() -> [LabeledInterval] {
        intervals + open.sorted { ($0.key.type, $0.key.face) < ($1.key.type, $1.key.face) }
            .map { LabeledInterval(type: $0.key.type, start: $0.value, end: lastT) }
    }
}
