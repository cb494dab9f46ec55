import Foundation

/// Limits and timings of a liveness check.
///
/// Every step is a series of cued trials: the person holds still for a random time, is cued, and
/// must respond inside a window that starts at a human reaction time after the cue. An action
/// made before its cue (during the hold) counts as early. In a blink step it leaves the cue at
/// its drawn time, and the step's answers must be unlikely to be chance at the rate of such blinks
/// and of their bursts (`chance(of:answered:cued:early:runs:holding:)`); in any other step it
/// restarts the hold, and a third fails the step. The defaults are set for people, from
/// reaction-time studies: a voluntary blink to a visual cue starts 0.25–0.6 s after it, a smile
/// or an open mouth within about 1 s.
public struct CheckSettings: Sendable, Equatable {
    /// Seconds each step may wait for a usable, neutral face (and the longest wait for a face).
    public var stepTimeout: Double = 5
    /// Seconds of a steady, usable face before the first prompt, while the daemon learns the
    /// person's open eyes and neutral face.
    public var settle: Double = 1
    /// Smallest face box side, in pixels, to start a step.
    public var minFaceSize: Int = 90
    /// Darkest mean gray level of the face (0–255) to start a step.
    public var minBrightness: Double = 40
    /// Largest |yaw| in degrees to start a step.
    public var maxTurn: Double = 20
    /// Largest |pitch| in degrees to start a step: wider than `maxTurn`, since a webcam above or
    /// below the screen sees a face pitched by 20–30° (measured on real webcam footage).
    public var maxPitch: Double = 35
    /// Yaw in degrees that counts as a head turn.
    public var turnYaw: Double = 20
    /// Pitch drop in degrees (from the pose at the cue) that counts as the down of a nod.
    public var nodPitch: Double = 10
    /// Seconds a turn must be held.
    public var holdTurn: Double = 0.1
    /// Seconds within which a new track where the face was (the tracker lost it in a fast move)
    /// continues the check's face rather than swapping it.
    public var reacquireTime: Double = 0.5
    /// Seconds a second face must stay in view, once the check has its face, to fail it.
    public var secondFaceTime: Double = 0.5
    /// With an identity to check: seconds between identity readings of the tracked face.
    public var identityInterval: Double = 0.25

    /// Seconds of stillness before each cue, drawn uniformly from this range per trial.
    public var hold: ClosedRange<Double> = 0.8...3.2
    /// Seconds from the cue to the start of a blink (its `start`: the eyes half closed) that
    /// count as a response. For `blink:N` the window's end moves `repeatGap` later per extra blink.
    public var blinkLatency: ClosedRange<Double> = 0.15...0.9
    /// A blink answers a cue only when the eyes' mean EAR went below this share of its level just
    /// before the cue (real blinks on the corpus reach 0.2–0.7, a few 0.8; a tilted photo's landmarks dipped to 0.83).
    public var blinkDepth = 0.75
    /// Extra seconds of window per further blink of a `blink:N` trial.
    public var repeatGap: Double = 0.6
    /// Seconds from the cue to a smile's or open mouth's start, a turn held, or a nod's way back
    /// up, that count as a response.
    public var actionLatency: ClosedRange<Double> = 0.2...1.3
    /// Seconds after a window closes during which a blink that started inside it may still be
    /// reported (a blink event comes when the eyes have opened again).
    public var reportGrace: Double = 0.6
    /// Actions made during holds (before their cue) that a smile, open-mouth, turn or nod step
    /// tolerates; one more fails it.
    public var earlyLimit: Int = 2
    /// Blinks made during holds that a blink step tolerates; one more fails it. It only bounds
    /// how long the step can go on: whether the answers of a person who also blinks on their own
    /// are theirs is the chance test's to decide (`chanceLevel`).
    public var blinkEarlyLimit: Int = 10
    /// The largest chance (`chance(of:answered:cued:early:runs:holding:)`) that a blink step's
    /// answers may have of being the face's own blinks, at the pace its holds showed, landing in
    /// the windows: above it the step gets another trial while it has one, then fails
    /// (`early_response`). A person who blinks on their own while holding still, 15 times a
    /// minute, still answers nearly every cue and passes; a video blinking at that pace lands in
    /// four of five windows in well under 1 % of attempts.
    public var chanceLevel = 0.01
    /// What the chance test assumes before the holds have shown anything: `chancePriorActions`
    /// blinks in `chancePriorSeconds` seconds (10 a minute: a person watching a screen blinks
    /// 5–15 times a minute), added to the early blinks and the time held. It keeps a step with
    /// short holds and no early blink from reading as a face that never blinks.
    public var chancePriorActions = 0.5
    public var chancePriorSeconds = 3.0
    /// Seconds within which the answers a blink step needs must lie of each other, measured cue to
    /// response (see `latencySpread(for:)`).
    public var blinkLatencySpread: Double = 0.45
    /// The same for smile and open-mouth steps.
    public var expressionLatencySpread: Double = 0.45
    /// Trials and the responses they need, per kind of step (see `trials(for:)`). Smiles and open
    /// mouths need as many as blinks: with three of four, a replayed video that smiles every 3 s
    /// passed a smile step in about 1 % of attempts; with four of five, in 0.4 %.
    public var blinkTrials = Trials(attempts: 5, needed: 4)
    public var expressionTrials = Trials(attempts: 5, needed: 4)
    public var movementTrials = Trials(attempts: 3, needed: 2)
    /// A turn or nod counts only when its landmarks leave every plane: the RMS residual of the
    /// best homography from the cue's shape to the turned shape, in inter-ocular distances, must
    /// reach this. A photo or a screen turned by hand moves as one plane; a head does not.
    public var minParallax: Double = 0.09

    /// How many cued trials a step has and how many responses it needs.
    public struct Trials: Sendable, Equatable {
        public var attempts: Int
        public var needed: Int

        public init(attempts: Int, needed: Int) {
            self.attempts = attempts
            self.needed = needed
        }
    }

    public init() {}

    /// The trials of one step.
    public func trials(for step: ChallengeStep) -> Trials {
        switch step {
        case .blink: return blinkTrials
        case .smile, .openMouth: return expressionTrials
        case .turnLeft, .turnRight, .nod: return movementTrials
        }
    }

    /// Whether `step` weighs its early actions against its answers (`chance(of:answered:cued:early:runs:holding:)`)
    /// and keeps each cue at its drawn time through them: the blink steps.
    func weighsEarlyActions(_ step: ChallengeStep) -> Bool {
        if case .blink = step { return true }
        return false
    }

    /// Early actions a step tolerates: `blinkEarlyLimit` for blink steps, else `earlyLimit`.
    public func earlyLimit(for step: ChallengeStep) -> Int {
        weighsEarlyActions(step) ? blinkEarlyLimit : earlyLimit
    }

    /// The largest spread of cue-to-response delays among the answers a step needs: the step is
    /// done when `needed` of its answers lie within this many seconds of each other, and fails
    /// (`unsteady_timing`) when its trials run out before they do. nil: any delay in the window.
    ///
    /// A person's reaction time to a visual cue varies by 50–100 ms (standard deviation) from
    /// trial to trial; a blink's start is read to within a frame (33–42 ms at 24–30 fps); four
    /// such answers lie within 0.45 s of each other in all but a few hundredths of attempts, and
    /// a step's spare trial absorbs one outlier. The spontaneous blinks of a replayed video fall
    /// anywhere in the 0.75 s windows: four of them lie that close in fewer than half of the
    /// attempts where they all landed in windows. Smiles and open mouths are held to the same
    /// spread (four answers); turns and nods are not: the plane test answers those.
    public func latencySpread(for step: ChallengeStep) -> Double? {
        switch step {
        case .blink: return blinkLatencySpread
        case .smile, .openMouth: return expressionLatencySpread
        default: return nil
        }
    }

    /// The chance that at least `answered` of `cued` windows of a blink step each hold the
    /// blinks it asks for by accident, for a face that blinks on its own as it did while holding:
    /// `early` blinks in `holding` seconds, and `runs` runs of the step's count of blinks within
    /// one window's length with an early blink among them (`StepResult.earlyRuns`; `early` for
    /// `blink`). nil for every other step, which fails at its third early action instead
    /// (`earlyLimit`).
    ///
    /// A window holds the blinks by accident with the larger of two chances: that of a Poisson
    /// process at the holds' pace of blinks and that of one at their pace of runs, each with the
    /// prior added (the prior's blinks taken as runs too). For `blink` the two are one. For
    /// `blink:N` the first is what a person blinking on their own gives (at 15 blinks a minute,
    /// two in a 1.35 s window 4.6 % of the time); the second is what a face that blinks in bursts
    /// gives, which a Poisson pace of single blinks understates: a video that blinks in bursts of
    /// three 0.7 s apart shows its bursts around its answers, the first blink before the cue or
    /// the third after the answer, even when the holds fall in the quiet between them.
    ///
    /// Holding still before each cue is when a face shows its own pace: a replayed video blinks
    /// there as often as anywhere, and so does a person who blinks on their own, who also answers
    /// nearly every cue. So blink steps weigh their early blinks against their answers rather
    /// than counting them against a fixed limit. That holds because their cues keep the times
    /// drawn for them whatever the face does: an early blink does not restart the hold, since
    /// cues drawn anew after each of a looped video's blinks would meet its next ones (tried on
    /// `blink`: 23 attacks of 1,740 accepted, against 4).
    public func chance(of step: ChallengeStep, answered: Int, cued: Int, early: Int, runs: Int, holding: Double) -> Double? {
        guard case .blink(let count) = step else { return nil }
        let seconds = max(holding + chancePriorSeconds, 1e-9)
        let width = windowLength(for: step)
        // Poisson: the chance of `count` or more blinks in one window, at the pace of single
        // blinks and at the pace of runs; binomial: of `answered` such windows of `cued`.
        let mean = (Double(early) + chancePriorActions) / seconds * width
        var term = exp(-mean), fewer = 0.0
        for k in 0..<max(count, 1) {
            fewer += term
            term *= mean / Double(k + 1)
        }
        let p = max(1 - fewer, 1 - exp(-(Double(runs) + chancePriorActions) / seconds * width))
        var tail = 0.0
        for k in max(answered, 0)...max(cued, answered) where k <= cued {
            tail += Self.binomial(cued, k) * pow(p, Double(k)) * pow(1 - p, Double(cued - k))
        }
        return min(tail, 1)
    }

    private static func binomial(_ n: Int, _ k: Int) -> Double {
        var result = 1.0
        for i in 0..<min(k, n - k) { result = result * Double(n - i) / Double(i + 1) }
        return result
    }

    /// The length in seconds of `step`'s window: the span within which a run of a blink step's
    /// blinks lies, and the time a window is exposed to the face's own.
    public func windowLength(for step: ChallengeStep) -> Double {
        let window = window(for: step)
        return window.upperBound - window.lowerBound
    }

    /// The window, in seconds after the cue, in which a response to `step` must start.
    public func window(for step: ChallengeStep) -> ClosedRange<Double> {
        switch step {
        case .blink(let count):
            return blinkLatency.lowerBound...(blinkLatency.upperBound + Double(max(count - 1, 0)) * repeatGap)
        default:
            return actionLatency
        }
    }
}
