import Events
import Pipeline
import Recordings

/// Replays a recording that has a `truth.json` and scores the reported events against the truth,
/// per event type: the project's quality gate and a user's tool for their own annotated clips.
public struct Evaluation: Sendable {
    /// The event types scored, in table order.
    public static let types = ["blink", "wink", "eyes_closed", "smile", "mouth_open"]

    /// Which blink detector is scored.
    public enum Rule: String, Sendable, CaseIterable {
        /// Facewatch's own events.
        case facewatch
        /// `ClassicBlinkRule` on the `frame` lines' EAR (blinks only; nothing else is reported).
        case classic
    }

    public let recording: String
    /// The person in the recording (`truth.json`'s `person`; the folder name when absent).
    public let person: String
    /// Scores per type (every type in `types`).
    public let scores: [String: DetectionScore]
    /// Reported blinks, winks and eye closures that overlap one of the truth's `negatives`
    /// (squints, looking down, …), per type.
    public let negativeHits: [String: Int]
    /// Negatives in the truth.
    public let negatives: Int
    /// Reported events, per type, not scored because they fell on one of the truth's `unsure`
    /// stretches and matched no truth event.
    public let unsureHits: [String: Int]
    /// Frames replayed.
    public let frames: Int

    /// All types together.
    public var total: DetectionScore { scores.values.reduce(DetectionScore(), +) }

    /// Replays `recording` through `processor` (a fresh one per recording) and scores it. The
    /// classic rule needs `frame` lines: give it a processor whose options include frames.
    public init(recording: Recording, processor: FrameProcessor, tolerance: Double = 0.25, rule: Rule = .facewatch) throws {
        guard let truth = recording.truth else {
            throw RecordingError(path: recording.directory, problem: "no truth.json to evaluate against")
        }
        let sink = CollectingSink(rule: rule)
        var source = RecordingSource(recording: recording)
        let summary = try Replay.run(&source, processor: processor, sink: sink)
        let reported = rule == .classic ? sink.classicBlinks : sink.collector.finished()
        let expected = truth.events.map(LabeledInterval.init)
        let unsure = (truth.unsure ?? []).map(LabeledInterval.init)
        var scores: [String: DetectionScore] = [:]
        var unsureHits: [String: Int] = [:]
        for type in Self.types {
            let truthOfType = expected.filter { $0.type == type }
            let ofType = reported.filter { $0.type == type }
            let scored = Self.setAsideUnsure(ofType, truth: truthOfType, unsure: unsure.filter { $0.type == type },
                                             tolerance: tolerance)
            unsureHits[type] = ofType.count - scored.count
            scores[type] = DetectionScore.score(reported: scored, truth: truthOfType, tolerance: tolerance)
        }
        let negatives = (truth.negatives ?? []).map(LabeledInterval.init)
        var hits: [String: Int] = [:]
        for type in ["blink", "wink", "eyes_closed"] {
            hits[type] = reported.filter { r in r.type == type && negatives.contains { $0.matches(r, tolerance: 0) } }.count
        }
        self.recording = recording.directory
        self.person = truth.person ?? String(recording.directory.split(separator: "/").last ?? "")
        self.scores = scores
        self.negativeHits = hits
        self.negatives = negatives.count
        self.unsureHits = unsureHits
        self.frames = summary.frames
    }
}

extension Evaluation {
    /// The reported events that are scored: all but those that overlap an `unsure` stretch of the
    /// truth and match no truth event (within `tolerance`, as scoring matches).
    public static func setAsideUnsure(_ reported: [LabeledInterval], truth: [LabeledInterval], unsure: [LabeledInterval],
                                      tolerance: Double) -> [LabeledInterval] {
        reported.filter { r in
            truth.contains { $0.matches(r, tolerance: tolerance) } || !unsure.contains { $0.matches(r, tolerance: 0) }
        }
    }
}

/// Gathers a replay's events into intervals, and runs the classic rule on the `frame` lines.
private final class CollectingSink: EventSink {
    let rule: Evaluation.Rule
    var collector = IntervalCollector()
    var classic = ClassicBlinkRule()
    var classicBlinks: [LabeledInterval] = []

    init(rule: Evaluation.Rule) {
        self.rule = rule
    }

    func write(_ event: Event) throws {
        collector.add(event)
        guard rule == .classic, case .frame(let faces) = event.payload else { return }
        if let face = faces.first {
            if let blink = classic.add(t: event.t, earLeft: face.earLeft, earRight: face.earRight) { classicBlinks.append(blink) }
        } else {
            classic.reset()
        }
    }
}
