import Pipeline
import Recordings
/// Something that happened over a stretch of stream time: a blink, a smile, an eye closure.
/// Both the daemon's events and a recording's truth are reduced to these for evaluation.
public struct LabeledInterval: Sendable, Equatable {
    /// The event type: `blink`, `wink`, `eyes_closed`, `smile`, `mouth_open`.
    public var type: String
    public var start: Double
    public var end: Double

    public init(type: String, start: Double, end: Double) {
        self.type = type
        self.start = start
        self.end = max(start, end)
    }

    /// A truth event's interval (its `eye` and `kind` are not scored).
    public init(_ event: Truth.Event) {
        self.init(type: event.type, start: event.start, end: event.end)
    }

    /// Whether two intervals overlap or lie within `tolerance` seconds of each other.
    public func matches(_ other: LabeledInterval, tolerance: Double) -> Bool {
        start <= other.end + tolerance && other.start <= end + tolerance
    }
}
