import Events
import Expressions
import FaceCore

/// Active liveness by challenge and response, bound to the timing of the prompts.
///
/// It waits for exactly one usable face (big enough, lit, facing the camera), lets the daemon
/// learn it for `settle` seconds, then runs each step of the challenge as a series of cued trials
/// (`CheckSettings.trials(for:)`): the face must be neutral for that step (mouth closed, not
/// smiling, facing the camera), then hold still for a random time drawn from the seed, then it
/// is cued and must respond inside the step's window, a human reaction time after the cue
/// (`CheckSettings.window(for:)`): blinks from `blink` events whose `start` lies in the window,
/// smiles and open mouths from their `start` events, turns and nods from the head pose. A turn or
/// nod counts only when the landmarks leave every plane (`PlaneFit`): a photo or a screen turned
/// by hand is a plane. An action made while holding, before its cue, counts against the step:
/// people blink, smile and talk on their own all the time, and a replayed video of them does so
/// at its own pace, as often in the holds as in the cued windows. In a blink step an early
/// blink leaves the cue at its drawn time (people blink while holding still), and the step's
/// answers must be unlikely to be chance at the pace of blinks, and of bursts of them, that the
/// holds show (`CheckSettings.chance(of:answered:cued:early:runs:holding:)`). In any other step
/// an early action restarts the hold, and a third fails the step.
///
/// It fails on too many unanswered cues (`timeout`), early actions so frequent that the answers
/// could be chance or more than `CheckSettings.earlyLimit(for:)` (`early_response`),
/// answers whose delays after their cues are not steady (`unsteady_timing`: see
/// `CheckSettings.latencySpread(for:)`), turns or nods that stay flat (`flat_face`), the face
/// being lost or swapped (a new track that takes over where the face was, at its size, within
/// `reacquireTime`, is the same face), or a second face that stays `secondFaceTime`.
/// Everything runs on the frames' clock and the seed, so a replay with the same seed gives the
/// same verdict every time.
///
/// With an expected identity (`identity` set), the caller reads the tracked face's identity
/// whenever `needsIdentity(t:)` says so and passes it to `observe`. The first prompt waits for a
/// matching reading (the start), every step needs a matching reading after its prompt, and the
/// pass needs one after the last step was done (the end). Any reading that does not match fails
/// the check: `identity_mismatch` before the face ever matched, `identity_changed` after.
public final class LivenessCheck {
    public let challenge: Challenge
    public let settings: CheckSettings
    /// The expected person's name, or nil for a liveness-only check.
    public let identity: String?
    public private(set) var verdict: CheckVerdict?

    private enum Phase {
        case waitingForFace
        case preparing(usableSince: Double?)
        /// Step `index`: waiting for a neutral face (`cueAt` nil), then holding still until `cueAt`.
        case holding(index: Int, since: Double, cueAt: Double?)
        /// Step `index`, cued at `cueT`: waiting for the response.
        case responding(index: Int, cueT: Double)
        /// Step `index` has its responses; waiting for a matching identity reading since its prompt.
        case confirmingStep(index: Int, since: Double)
        /// All steps done at `doneT`: waiting for the closing identity reading.
        case confirming(doneT: Double)
    }

    /// What the current trial has seen since its cue.
    private struct Trial {
        var cueShape: FaceShape
        var cuePitch: Double
        /// The eyes' mean EAR just before the cue, and the lowest since.
        var cueEAR: Double
        var lowestEAR: Double
        var blinkStarts: [Double] = []
        var turnSince: Double?
        var nodWentDown = false
        /// The largest out-of-plane residual seen since the cue.
        var parallax = 0.0
    }

    private var phase = Phase.waitingForFace
    /// When the current hold began (the face ready for a cue), nil outside a hold.
    private var holdStart: Double?
    /// The cue time drawn for the current trial, nil until it is drawn. In a blink step early
    /// blinks do not move it, so the cues keep to the seed's times, not to the face's own pace (a
    /// cue drawn anew after each of a looped video's blinks would come at a fixed time after it).
    private var drawnCue: Double?
    private var generator: SplitMix64
    /// The current step's latest blinks, early or answering (as many as the step asks for, at
    /// most), for its runs (`StepResult.earlyRuns`).
    private var stepBlinks: [(start: Double, early: Bool)] = []
    private var trial: Trial?
    private var start: Double?
    private var face: Int?
    private var results: [StepResult] = []
    private var promptPitch = 0.0
    /// The eyes' mean EAR over the last few frames (newest last), for the level at a cue.
    private var recentEAR: [Double] = []
    private var multipleSince: Double?
    /// When and where the check's face was seen over the last `reacquireTime` (oldest first).
    private var recentBoxes: [(t: Double, box: FaceBox)] = []
    private var lastAdjust: AdjustReason?
    private var adjustSince: Double?
    private var previousShape: FaceShape?
    private var motion: [Double] = []
    private var last = (frame: 0, t: 0.0)
    private var lastReadingT: Double?
    private var lastMatchT: Double?
    private var largestDistance: Double?

    /// `seed` draws the holds before the cues: the same seed gives the same cue times for the
    /// same frames.
    public init(challenge: Challenge, settings: CheckSettings = CheckSettings(), identity: String? = nil, seed: UInt64 = 0) {
        self.challenge = challenge
        self.settings = settings
        self.identity = identity
        generator = SplitMix64(seed: seed ^ 0x6C69_7665_6E65_7373)
    }

    /// Whether the caller should read the tracked face's identity on the frame at `t`.
    public func needsIdentity(t: Double) -> Bool {
        guard identity != nil, verdict == nil else { return false }
        switch phase {
        case .confirming, .confirmingStep: return true
        default: break
        }
        guard let lastReadingT else { return true }
        return t - lastReadingT >= settings.identityInterval
    }

    /// Feeds one processed frame: the events the processor emitted for it, the faces it tracked
    /// and how many faces the detector last saw.
    public func observe(frame: Int, t: Double, events: [Event], faces: [FaceObservation], facesInView: Int,
                        identity reading: IdentityReading? = nil, emit: (CheckOutput) -> Void) {
        guard verdict == nil else { return }
        last = (frame, t)
        let start = self.start ?? t
        self.start = start
        if faces.count > 1 || facesInView > 1 {
            if face == nil {
                adjust(.oneFaceOnly, t: t, frame: frame, emit: emit)
                if t - (adjustSince ?? t) > settings.stepTimeout { fail(.multipleFaces, emit: emit) }
                return
            }
            // A second face for a frame or two is the detector's false box; one that stays is not.
            let since = multipleSince ?? t
            multipleSince = since
            if t - since >= settings.secondFaceTime { return fail(.multipleFaces, emit: emit) }
        } else {
            multipleSince = nil
        }
        guard let observed = faces.first(where: { $0.id == face }) ?? faces.first else {
            if face != nil { return fail(.faceLost, emit: emit) }
            adjust(.noFace, t: t, frame: frame, emit: emit)
            if t - start > settings.stepTimeout { fail(.noFace, emit: emit) }
            return
        }
        recentBoxes.removeAll { t - $0.t > settings.reacquireTime }
        if let face, observed.id != face {
            // The tracker starts a new track when the face jumps (a fast move, dropped frames),
            // sometimes after the old track's fit has shrunk off the face for a few frames: a face
            // that takes over where the old one was in the last `reacquireTime`, at its size then,
            // is the same face.
            guard recentBoxes.contains(where: { Self.continues($0.box, with: observed.box) }) else {
                return fail(.faceSwapped, emit: emit)
            }
        }
        face = observed.id
        recentBoxes.append((t, observed.box))
        recordMotion(observed.shape)
        let ear = (observed.measures.earLeft + observed.measures.earRight) / 2
        if ear.isFinite {
            recentEAR.append(ear)
            if recentEAR.count > 6 { recentEAR.removeFirst() }
        }
        if identity != nil, let reading, reading.face == observed.id {
            emit(.identity(reading))
            lastReadingT = t
            largestDistance = max(largestDistance ?? reading.distance, reading.distance)
            guard reading.match else { return fail(lastMatchT == nil ? .identityMismatch : .identityChanged, emit: emit) }
            lastMatchT = t
        }

        switch phase {
        case .waitingForFace:
            phase = .preparing(usableSince: nil)
            prepare(observed, frame: frame, t: t, emit: emit)
        case .preparing:
            prepare(observed, frame: frame, t: t, emit: emit)
        case .holding(let index, let since, let cueAt):
            hold(index: index, since: since, cueAt: cueAt, observed: observed, events: events, frame: frame, t: t, emit: emit)
        case .responding(let index, let cueT):
            respond(index: index, cueT: cueT, observed: observed, events: events, frame: frame, t: t, emit: emit)
        case .confirmingStep(let index, let since):
            if let lastMatchT, lastMatchT >= results[index].promptT {
                complete(index: index, observed: observed, frame: frame, t: t, emit: emit)
            } else if t - since > settings.stepTimeout {
                fail(.timeout, emit: emit)
            }
        case .confirming(let doneT):
            if let lastMatchT, lastMatchT >= doneT { return pass(emit: emit) }
            if t - doneT > settings.stepTimeout { fail(.identityMismatch, emit: emit) }
        }
    }

    /// The frames ended: a check still running fails.
    public func finish(emit: (CheckOutput) -> Void) {
        guard verdict == nil else { return }
        fail(face == nil ? .noFace : .streamEnded, emit: emit)
    }

    /// Before a step: wait until the face is usable (and, before the first, settled), then prompt.
    private func prepare(_ observed: FaceObservation, frame: Int, t: Double, emit: (CheckOutput) -> Void) {
        guard case .preparing(let usableSince) = phase else { return }
        if let problem = problem(with: observed) {
            phase = .preparing(usableSince: nil)
            adjust(problem.adjust, t: t, frame: frame, emit: emit)
            if t - (adjustSince ?? t) > settings.stepTimeout { fail(problem.failure, emit: emit) }
            return
        }
        lastAdjust = nil
        adjustSince = nil
        let since = usableSince ?? t
        phase = .preparing(usableSince: since)
        let settle = results.isEmpty ? settings.settle : 0
        guard t - since >= settle else { return }
        if identity != nil, lastMatchT == nil {
            // The start: no prompt before the face has matched the expected person.
            if t - since > settle + settings.stepTimeout { fail(.identityMismatch, emit: emit) }
            return
        }
        let index = results.count
        results.append(StepResult(step: challenge.steps[index], promptT: t))
        stepBlinks.removeAll()
        promptPitch = observed.measures.pose.pitch
        phase = .holding(index: index, since: t, cueAt: nil)
        emit(.prompt(step: challenge.steps[index], index: index, of: challenge.steps.count, t: t, frame: frame,
                     timeout: settings.stepTimeout))
    }

    /// Before a cue: wait for a neutral face, then for the drawn hold without the step's action.
    private func hold(index: Int, since: Double, cueAt: Double?, observed: FaceObservation, events: [Event],
                      frame: Int, t: Double, emit: (CheckOutput) -> Void) {
        let step = challenge.steps[index]
        guard let cueAt else {
            if neutral(for: step, observed) {
                let drawn = drawnCue ?? t + Double.random(in: settings.hold, using: &generator)
                drawnCue = drawn
                holdStart = t
                phase = .holding(index: index, since: since, cueAt: drawn)
            } else if t - since > settings.stepTimeout {
                fail(.timeout, emit: emit)
            }
            return
        }
        if let started = acted(step, events: events, observed: observed) {
            return early(index: index, t: t, started: started, emit: emit)
        }
        if !neutral(for: step, observed) { return early(index: index, t: t, emit: emit) }
        guard t >= cueAt else { return }
        endHold(index: index, t: t)
        drawnCue = nil
        let trials = settings.trials(for: step)
        let level = recentEAR.isEmpty ? 0 : recentEAR.sorted()[recentEAR.count / 2]
        trial = Trial(cueShape: observed.shape, cuePitch: observed.measures.pose.pitch, cueEAR: level, lowestEAR: level)
        phase = .responding(index: index, cueT: t)
        emit(.cue(step: step, trial: results[index].latencies.count + results[index].missed + 1, of: trials.attempts,
                  t: t, frame: frame, window: settings.window(for: step)))
    }

    /// After a cue: look for the response in its window.
    private func respond(index: Int, cueT: Double, observed: FaceObservation, events: [Event], frame: Int, t: Double,
                         emit: (CheckOutput) -> Void) {
        guard var current = trial else { return }
        // What this frame added to the trial is kept while the trial goes on; `early`, `miss`
        // and `answer` end it (trial nil).
        defer { if trial != nil { trial = current } }
        let step = challenge.steps[index]
        let window = settings.window(for: step)
        let opens = cueT + window.lowerBound, closes = cueT + window.upperBound
        switch step {
        case .blink(let count):
            let ear = (observed.measures.earLeft + observed.measures.earRight) / 2
            if ear.isFinite { current.lowestEAR = min(current.lowestEAR, ear) }
            for event in events {
                guard case .blink(_, let start, _) = event.payload else { continue }
                if start < opens { return early(index: index, t: t, started: start, emit: emit) }
                if start > closes { return miss(index: index, t: t, emit: emit) }
                // The eyes must really have closed since the cue, measured against their level
                // at the cue: the blink detector's own open level can be misled by what came
                // before (a printed photo tilted to and fro).
                guard current.lowestEAR <= settings.blinkDepth * current.cueEAR else { continue }
                current.blinkStarts.append(start)
                noteBlink(start: start, early: false, index: index)
                if current.blinkStarts.count >= count {
                    return answer(index: index, latency: current.blinkStarts[0] - cueT, observed: observed, frame: frame, t: t, emit: emit)
                }
            }
            if t > closes + settings.reportGrace { return miss(index: index, t: t, emit: emit) }
        case .smile, .openMouth:
            for event in events where isStart(of: step, event) {
                if event.t < opens { return early(index: index, t: t, emit: emit) }
                return answer(index: index, latency: event.t - cueT, observed: observed, frame: frame, t: t, emit: emit)
            }
            if t > closes { return miss(index: index, t: t, emit: emit) }
        case .turnLeft, .turnRight, .nod:
            let pose = observed.measures.pose
            var reached: Double?
            if step == .nod {
                if pose.pitch <= current.cuePitch - settings.nodPitch { current.nodWentDown = true }
                if current.nodWentDown { current.parallax = max(current.parallax, PlaneFit.residual(from: current.cueShape, to: observed.shape) ?? 0) }
                if current.nodWentDown && pose.pitch >= current.cuePitch - settings.nodPitch / 2 { reached = t }
            } else if step == .turnLeft ? pose.yaw >= settings.turnYaw : pose.yaw <= -settings.turnYaw {
                let since = current.turnSince ?? t
                current.turnSince = since
                current.parallax = max(current.parallax, PlaneFit.residual(from: current.cueShape, to: observed.shape) ?? 0)
                if t - since >= settings.holdTurn { reached = since }
            } else {
                current.turnSince = nil
            }
            if let reached {
                if reached - cueT < window.lowerBound { return early(index: index, t: t, emit: emit) }
                if current.parallax < settings.minParallax {
                    results[index].flat += 1
                    return miss(index: index, t: t, emit: emit)
                }
                return answer(index: index, latency: reached - cueT, observed: observed, frame: frame, t: t, emit: emit)
            }
            if t > closes + settings.holdTurn { return miss(index: index, t: t, emit: emit) }
        }
    }

    /// Whether `event` starts the expression `step` asks for.
    private func isStart(of step: ChallengeStep, _ event: Event) -> Bool {
        switch (step, event.payload) {
        case (.smile, .smile(_, .start, _)), (.openMouth, .mouthOpen(_, .start, _)): return true
        default: return false
        }
    }

    /// Whether the face did the step's action on this frame (while it should hold still): nil if
    /// not, else when it started.
    private func acted(_ step: ChallengeStep, events: [Event], observed: FaceObservation) -> Double? {
        for event in events {
            switch (step, event.payload) {
            case (.blink, .blink(_, let start, _)): return start
            case (.smile, _), (.openMouth, _): if isStart(of: step, event) { return event.t }
            default: continue
            }
        }
        return nil
    }

    /// Whether the face is at rest for `step`: no smile or open mouth for those steps, facing the
    /// camera for turns, the prompt's pitch for nods.
    private func neutral(for step: ChallengeStep, _ observed: FaceObservation) -> Bool {
        let pose = observed.measures.pose
        switch step {
        case .blink: return true
        case .smile: return !observed.smiling
        case .openMouth: return !observed.mouthOpen
        case .turnLeft, .turnRight: return abs(pose.yaw) < settings.turnYaw / 2
        case .nod: return abs(pose.pitch - promptPitch) < settings.nodPitch / 2
        }
    }

    /// The action came before its cue: count it, and hold again unless the step has had too many.
    /// A blink step's cue keeps its drawn time; any other step draws its hold anew. `started`:
    /// when the early action started, if it was one (not a face that left its neutral pose); a
    /// blink step notes its blinks for their runs.
    private func early(index: Int, t: Double, started: Double? = nil, emit: (CheckOutput) -> Void) {
        endHold(index: index, t: t)
        let step = results[index].step
        if !settings.weighsEarlyActions(step) { drawnCue = nil }
        results[index].early += 1
        if let started { noteBlink(start: started, early: true, index: index) }
        trial = nil
        if results[index].early > settings.earlyLimit(for: step) { return fail(.earlyResponse, emit: emit) }
        phase = .holding(index: index, since: t, cueAt: nil)
    }

    /// Notes a blink of a blink step, early or answering, and counts a run when it ends one: as
    /// many blinks as the step asks for within one window's length, one of them early. A face
    /// that blinks in bursts shows them around its answers too: the hold after an answer starts
    /// in the quiet after the burst that gave it, and a burst's first blink comes before the cue.
    private func noteBlink(start: Double, early: Bool, index: Int) {
        guard case .blink(let count) = results[index].step else { return }
        stepBlinks.append((start, early))
        if stepBlinks.count > count { stepBlinks.removeFirst() }
        if stepBlinks.count == count, start - stepBlinks[0].start <= settings.windowLength(for: results[index].step),
           stepBlinks.contains(where: \.early) {
            results[index].earlyRuns += 1
        }
    }

    /// Adds the hold that ends at `t` (at its cue, or at an early action) to the step's holding time.
    private func endHold(index: Int, t: Double) {
        if let holdStart { results[index].holding += t - holdStart }
        holdStart = nil
    }

    /// The cue went unanswered: fail when the step can no longer get its responses, else hold again.
    private func miss(index: Int, t: Double, emit: (CheckOutput) -> Void) {
        results[index].missed += 1
        trial = nil
        let trials = settings.trials(for: results[index].step)
        if results[index].missed > trials.attempts - trials.needed {
            return fail(results[index].flat > 0 ? .flatFace : .timeout, emit: emit)
        }
        // Enough answers, but not steady ones, and no trial left to make them so.
        if results[index].latencies.count + results[index].missed >= trials.attempts {
            return fail(.unsteadyTiming, emit: emit)
        }
        phase = .holding(index: index, since: t, cueAt: nil)
    }

    /// The cue was answered: the step is done when it has its responses, else hold again.
    private func answer(index: Int, latency: Double, observed: FaceObservation, frame: Int, t: Double,
                        emit: (CheckOutput) -> Void) {
        results[index].latencies.append(latency)
        trial = nil
        let step = results[index].step, trials = settings.trials(for: step)
        let cued = results[index].latencies.count + results[index].missed
        guard steady(results[index].latencies, needed: trials.needed, within: settings.latencySpread(for: step)) else {
            if cued >= trials.attempts { return fail(.unsteadyTiming, emit: emit) }
            phase = .holding(index: index, since: t, cueAt: nil)
            return
        }
        // Answers a face that acts this often on its own could give by accident: another trial
        // while there is one (more answers make them less likely to be chance), else a failure.
        let chance = settings.chance(of: step, answered: results[index].latencies.count, cued: cued,
                                     early: results[index].early, runs: results[index].earlyRuns,
                                     holding: results[index].holding)
        results[index].chance = chance
        guard (chance ?? 0) <= settings.chanceLevel else {
            if cued >= trials.attempts { return fail(.earlyResponse, emit: emit) }
            phase = .holding(index: index, since: t, cueAt: nil)
            return
        }
        // Each step: its responses, and (with an identity) a matching reading since its prompt.
        if identity != nil, (lastMatchT ?? -.infinity) < results[index].promptT {
            phase = .confirmingStep(index: index, since: t)
            return
        }
        complete(index: index, observed: observed, frame: frame, t: t, emit: emit)
    }

    /// Whether `needed` of the `latencies` lie within `spread` seconds of each other (any `needed`
    /// of them when `spread` is nil).
    private func steady(_ latencies: [Double], needed: Int, within spread: Double?) -> Bool {
        guard latencies.count >= needed else { return false }
        guard let spread else { return true }
        let sorted = latencies.sorted()
        return sorted.indices.dropLast(needed - 1).contains { sorted[$0 + needed - 1] - sorted[$0] <= spread }
    }

    /// The step is done: on to the next, or the end.
    private func complete(index: Int, observed: FaceObservation, frame: Int, t: Double, emit: (CheckOutput) -> Void) {
        results[index].doneT = t
        if index + 1 == challenge.steps.count {
            // The end: one more matching reading after the last action.
            if identity != nil {
                phase = .confirming(doneT: t)
                return
            }
            return pass(emit: emit)
        }
        phase = .preparing(usableSince: t)
        prepare(observed, frame: frame, t: t, emit: emit)
    }

    /// Whether box `b` continues box `a`: its centre within one width of `a`'s, its width within
    /// a factor of 1.5.
    static func continues(_ a: FaceBox, with b: FaceBox) -> Bool {
        let dx = Double(b.x + b.width / 2 - a.x - a.width / 2), dy = Double(b.y + b.height / 2 - a.y - a.height / 2)
        let ratio = Double(b.width) / Double(max(a.width, 1))
        return (dx * dx + dy * dy).squareRoot() <= Double(a.width) && ratio >= 1 / 1.5 && ratio <= 1.5
    }

    private func problem(with observed: FaceObservation) -> (adjust: AdjustReason, failure: FailureReason)? {
        if observed.box.width < settings.minFaceSize { return (.moveCloser, .tooSmall) }
        if observed.brightness < settings.minBrightness { return (.moreLight, .tooDark) }
        let pose = observed.measures.pose
        if abs(pose.yaw) > settings.maxTurn || abs(pose.pitch) > settings.maxPitch { return (.faceCamera, .turnedAway) }
        return nil
    }

    /// Asks the person to adjust (once per reason), remembering since when.
    private func adjust(_ reason: AdjustReason, t: Double, frame: Int, emit: (CheckOutput) -> Void) {
        if adjustSince == nil { adjustSince = t }
        guard reason != lastAdjust else { return }
        lastAdjust = reason
        emit(.adjust(reason, t: t, frame: frame))
    }

    /// Non-rigid motion: the shape's RMS residual after the best similarity fit onto the previous
    /// frame's, in inter-ocular distances.
    private func recordMotion(_ shape: FaceShape) {
        defer { previousShape = shape }
        guard let previous = previousShape, previous.count == shape.count, shape.count >= 48 else { return }
        let n = shape.count
        var meanP = SIMD2<Double>.zero, meanQ = SIMD2<Double>.zero
        for i in 0..<n {
            meanP += SIMD2<Double>(previous[i])
            meanQ += SIMD2<Double>(shape[i])
        }
        meanP /= Double(n)
        meanQ /= Double(n)
        var a = 0.0, b = 0.0, norm = 0.0
        for i in 0..<n {
            let p = SIMD2<Double>(previous[i]) - meanP, q = SIMD2<Double>(shape[i]) - meanQ
            a += p.x * q.x + p.y * q.y
            b += p.x * q.y - p.y * q.x
            norm += p.x * p.x + p.y * p.y
        }
        guard norm > 0 else { return }
        let c = a / norm, s = b / norm
        var residual = 0.0
        for i in 0..<n {
            let p = SIMD2<Double>(previous[i]) - meanP, q = SIMD2<Double>(shape[i]) - meanQ
            let fitted = SIMD2(c * p.x - s * p.y, s * p.x + c * p.y)
            residual += ((q - fitted) * (q - fitted)).sum()
        }
        guard let iod = shape.eyes?.distance, iod > 0 else { return }
        motion.append((residual / Double(n)).squareRoot() / iod)
    }

    private func pass(emit: (CheckOutput) -> Void) {
        conclude(passed: true, reason: nil, emit: emit)
    }

    private func fail(_ reason: FailureReason, emit: (CheckOutput) -> Void) {
        if let index = results.indices.last, results[index].doneT == nil { results[index].failure = reason }
        conclude(passed: false, reason: reason, emit: emit)
    }

    private func conclude(passed: Bool, reason: FailureReason?, emit: (CheckOutput) -> Void) {
        let sorted = motion.sorted()
        let median = sorted.isEmpty ? 0 : sorted[sorted.count / 2]
        let verdict = CheckVerdict(passed: passed, reason: reason, t: last.t, frame: last.frame, face: face,
                                   challenge: challenge, steps: results, microMotion: median,
                                   identity: identity, identityDistance: largestDistance)
        self.verdict = verdict
        emit(.verdict(verdict))
    }
}
