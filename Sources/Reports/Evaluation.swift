import Events
import Pipeline
import Recordings

/// Replays a recording that has a `truth.json` and scores the reported events against the truth,
/// per event type: the project's quality gate and a user's tool for their own annotated clips.
public struct Evaluation: Sendable {
    /// The event types scored, in table order.
    public static let types = ["blink", "wink", "eyes_closed", "smile", "mouth_open"]

    public let recording: String
    /// Scores per type (every type in `types`).
    public let scores: [String: DetectionScore]
    /// Frames replayed.
    public let frames: Int

    /// All types together.
    public var total: DetectionScore { scores.values.reduce(DetectionScore(), +) }

    /// Replays `recording` through `processor` (a fresh one per recording) and scores it.
    public init(recording: Recording, processor: FrameProcessor, tolerance: Double = 0.25) throws {
        guard let truth = recording.truth else {
            throw RecordingError(path: recording.directory, problem: "no truth.json to evaluate against")
        }
        let sink = CollectingSink()
        var source = RecordingSource(recording: recording)
        let summary = try Replay.run(&source, processor: processor, sink: sink)
        let reported = sink.collector.finished()
        let expected = truth.events.map { LabeledInterval(type: $0.type, start: $0.start, end: $0.end) }
        var scores: [String: DetectionScore] = [:]
        for type in Self.types {
            scores[type] = DetectionScore.score(reported: reported.filter { $0.type == type },
                                                truth: expected.filter { $0.type == type }, tolerance: tolerance)
        }
        self.recording = recording.directory
        self.scores = scores
        self.frames = summary.frames
    }
}

/// Gathers a replay's events into intervals.
private final class CollectingSink: EventSink {
    var collector = IntervalCollector()

    func write(_ event: Event) throws {
        collector.add(event)
    }
}
