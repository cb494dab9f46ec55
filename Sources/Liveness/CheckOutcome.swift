/// Why a check failed (or could not be run).
public enum FailureReason: String, Sendable, Equatable {
    /// Too many cues of a step went unanswered in their windows (a still photo never blinks; a
    /// replayed video does not blink on cue), or the face never became neutral for the next cue.
    case timeout
    /// No face appeared in time.
    case noFace = "no_face"
    /// More than one face was in view.
    case multipleFaces = "multiple_faces"
    /// The face was lost mid-check.
    case faceLost = "face_lost"
    /// A different face took the place of the first.
    case faceSwapped = "face_swapped"
    /// The step's action came before its cue more often than `CheckSettings.earlyLimit(for:)`
    /// allows, or (a blink step) so often that its answers could be chance (above
    /// `CheckSettings.chanceLevel`): a replayed video does things at its own pace, as often
    /// between the cues as in their windows.
    case earlyResponse = "early_response"
    /// The step's answers came at unsteady delays after their cues: no `needed` of them lie within
    /// `CheckSettings.latencySpread(for:)` of each other before its trials ran out. A person
    /// answers each cue after much the same reaction time; a replayed video's own actions fall
    /// anywhere in the windows.
    case unsteadyTiming = "unsteady_timing"
    /// The turns or nods moved the landmarks as one plane (a photo or a screen turned by hand).
    case flatFace = "flat_face"
    /// The face stayed too small, too dark or turned away to start a step.
    case tooSmall = "too_small"
    case tooDark = "too_dark"
    case turnedAway = "turned_away"
    /// The frames ended before the check did.
    case streamEnded = "stream_ended"
    /// The face is not the expected person (`check --identity` / `--against`).
    case identityMismatch = "identity_mismatch"
    /// The face matched the expected person, then stopped matching: another person took its place.
    case identityChanged = "identity_changed"
}

/// The result of one step.
public struct StepResult: Sendable, Equatable {
    public var step: ChallengeStep
    /// Stream time of its prompt.
    public var promptT: Double
    /// Stream time it was done, nil if it was not.
    public var doneT: Double?
    /// Set when the step failed.
    public var failure: FailureReason?
    /// Per answered cue, seconds from the cue to the response.
    public var latencies: [Double] = []
    /// Cues that went unanswered in their window.
    public var missed = 0
    /// Actions made during a hold, before their cue.
    public var early = 0
    /// A blink step's runs: blinks that ended a run of as many blinks as the step asks for within
    /// one window's length, at least one of them early (in a hold, or too soon after a cue). The
    /// bursts of the face's own, in its holds or around its answers; `early` for `blink`.
    public var earlyRuns = 0
    /// Seconds spent holding still before cues: the time in which `early` was counted.
    public var holding = 0.0
    /// The chance that the answers came at random, at the pace of the early blinks and runs
    /// (`CheckSettings.chance(of:answered:cued:early:runs:holding:)`), when the step last had the
    /// answers it needs; nil before that, and for steps other than blink steps.
    public var chance: Double?
    /// Turns or nods refused because the landmarks moved as one plane.
    public var flat = 0

    public init(step: ChallengeStep, promptT: Double, doneT: Double? = nil, failure: FailureReason? = nil) {
        self.step = step
        self.promptT = promptT
        self.doneT = doneT
        self.failure = failure
    }
}

/// The check's final word.
public struct CheckVerdict: Sendable, Equatable {
    public var passed: Bool
    public var reason: FailureReason?
    public var t: Double
    public var frame: Int
    public var face: Int?
    public var challenge: Challenge
    public var steps: [StepResult]
    /// Median non-rigid motion of the landmarks between frames, in inter-ocular distances: live
    /// faces move their features a little all the time; a photo moves only as a whole.
    public var microMotion: Double
    /// With an identity check: who was expected and the largest distance read (nil without one).
    public var identity: String? = nil
    public var identityDistance: Double? = nil
}

/// Why the person is asked to adjust before a step can start.
public enum AdjustReason: String, Sendable, Equatable {
    case noFace = "no_face"
    case moveCloser = "move_closer"
    case moreLight = "more_light"
    case faceCamera = "face_camera"
    case oneFaceOnly = "one_face_only"
}

/// What the check writes: prompts for the calling program to show, then one verdict.
public enum CheckOutput: Sendable, Equatable {
    /// The next step (`index` of `of`): keep still and do it at each cue. `timeout` is how long the
    /// step waits for a neutral face before a cue.
    case prompt(step: ChallengeStep, index: Int, of: Int, t: Double, frame: Int, timeout: Double)
    /// Do it now: trial `trial` (1-based) of `of` of the current step; a response counts when it
    /// starts inside `window` (seconds after `t`).
    case cue(step: ChallengeStep, trial: Int, of: Int, t: Double, frame: Int, window: ClosedRange<Double>)
    /// The face is not usable yet: why.
    case adjust(AdjustReason, t: Double, frame: Int)
    /// An identity reading of the tracked face (`identity` event).
    case identity(IdentityReading)
    case verdict(CheckVerdict)
}

/// The tracked face compared with the expected person: the `identity` event's fields.
public struct IdentityReading: Sendable, Equatable {
    public var t: Double
    public var frame: Int
    public var face: Int
    /// The expected person's name (an enrolled name, or the ID photo's path).
    public var name: String
    public var distance: Double
    public var threshold: Double
    public var match: Bool { distance < threshold }

    public init(t: Double, frame: Int, face: Int, name: String, distance: Double, threshold: Double) {
        self.t = t
        self.frame = frame
        self.face = face
        self.name = name
        self.distance = distance
        self.threshold = threshold
    }
}
