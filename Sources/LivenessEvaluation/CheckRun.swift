import Events
import FaceCore
import Liveness
import Pipeline
import Recordings

/// Runs liveness checks on presentations: a replayed recording (an attack, processed once and
/// checked under many challenges and seeds) or a responding person (processed per check, since
/// what it shows follows the cues).
public enum CheckRun {
    /// What the processor made of one frame: all a check observes.
    public struct ProcessedFrame: Sendable {
        public var index: Int
        public var t: Double
        public var events: [Event]
        public var faces: [FaceObservation]
        public var facesInView: Int
    }

    /// How many times `recording` must play to last `seconds` (at least once).
    public static func loops(_ recording: Recording, toLast seconds: Double) -> Int {
        let period = recording.duration + 1 / recording.info.fps
        return max(1, Int((seconds / period).rounded(.up)))
    }

    /// Processes every frame of `source`, for `verdict(_:seed:settings:on:)`.
    public static func process(_ source: inout some FrameSource, with processor: FrameProcessor) throws -> [ProcessedFrame] {
        var frames: [ProcessedFrame] = []
        var events: [Event] = []
        while let result = try processor.processNext(from: &source, emit: { events.append($0) }) {
            frames.append(ProcessedFrame(index: result.index, t: result.t, events: events, faces: result.faces,
                                         facesInView: result.facesInView))
            events.removeAll(keepingCapacity: true)
        }
        return frames
    }

    /// The verdict of a check of `challenge` with `seed` on frames processed beforehand: the same
    /// as `facewatch check --replay` with that challenge and seed.
    public static func verdict(_ challenge: Challenge, seed: UInt64, settings: CheckSettings = CheckSettings(),
                               on frames: [ProcessedFrame]) -> CheckVerdict {
        let check = LivenessCheck(challenge: challenge, settings: settings, seed: seed)
        for frame in frames where check.verdict == nil {
            check.observe(frame: frame.index, t: frame.t, events: frame.events, faces: frame.faces,
                          facesInView: frame.facesInView) { _ in }
        }
        check.finish { _ in }
        return check.verdict!
    }

    /// The verdict of a check of `challenge` with `seed` taken by `person`, whose frames go
    /// through `processor` (a fresh one: it must not have seen other frames). `frames` receives
    /// every frame shown and one second more, for writing the presentation out as a recording.
    public static func verdict(_ challenge: Challenge, seed: UInt64, settings: CheckSettings = CheckSettings(),
                               person: inout RespondingPerson, processor: FrameProcessor,
                               frames: (Frame) throws -> Void = { _ in }) throws -> CheckVerdict {
        let check = LivenessCheck(challenge: challenge, settings: settings, seed: seed)
        var events: [Event] = []
        while check.verdict == nil, let result = try processor.processNext(from: &person, emit: { events.append($0) }) {
            try frames(result.frame)
            check.observe(frame: result.index, t: result.t, events: events, faces: result.faces,
                          facesInView: result.facesInView) { person.hear($0) }
            events.removeAll(keepingCapacity: true)
        }
        check.finish { _ in }
        // The person stays in view for a second after the verdict, so that a saved presentation
        // also serves a check that needs a frame more (a closing identity reading).
        for _ in 0..<Int(person.recording.info.fps.rounded()) {
            guard let frame = try person.nextFrame() else { break }
            try frames(frame)
        }
        return check.verdict!
    }
}
