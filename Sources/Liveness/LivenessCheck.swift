import Events
import Expressions
import Landmarks
import Pipeline

/// Active liveness by challenge and response, driven by the pipeline's output frame by frame.
///
/// It waits for exactly one usable face (big enough, lit, facing the camera), lets the daemon
/// learn it for `settle` seconds, then prompts each step in turn and watches for it: blinks from
/// `blink` events that started after the prompt, smiles and open mouths from their `start`
/// events, turns and nods from the head pose. It fails on a missed deadline, on the face being
/// lost or swapped, on a second face, and on an action of a later step done before it was asked
/// for. Everything runs on the frames' clock, so a replay gives the same verdict every time.
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
        case step(index: Int, promptT: Double)
        /// All steps done at `doneT`: waiting for the closing identity reading.
        case confirming(doneT: Double)
    }

    private var phase = Phase.waitingForFace
    private var start: Double?
    private var face: Int?
    private var results: [StepResult] = []
    private var lastAdjust: AdjustReason?
    private var adjustSince: Double?
    private var blinksSincePrompt = 0
    private var turnSince: Double?
    private var nodBaseline: Double?
    private var nodWentDown = false
    private var previousShape: FaceShape?
    private var motion: [Double] = []
    private var last = (frame: 0, t: 0.0)
    private var lastReadingT: Double?
    private var lastMatchT: Double?
    private var largestDistance: Double?
    /// The current step's action was seen; it completes with a matching identity reading.
    private var actionSeen = false

    public init(challenge: Challenge, settings: CheckSettings = CheckSettings(), identity: String? = nil) {
        self.challenge = challenge
        self.settings = settings
        self.identity = identity
    }

    /// Whether the caller should read the tracked face's identity on the frame at `t`.
    public func needsIdentity(t: Double) -> Bool {
        guard identity != nil, verdict == nil else { return false }
        if case .confirming = phase { return true }
        if actionSeen { return true }
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
            return fail(.multipleFaces, emit: emit)
        }
        guard let observed = faces.first else {
            if face != nil { return fail(.faceLost, emit: emit) }
            adjust(.noFace, t: t, frame: frame, emit: emit)
            if t - start > settings.stepTimeout { fail(.noFace, emit: emit) }
            return
        }
        if let face, observed.id != face { return fail(.faceSwapped, emit: emit) }
        face = observed.id
        recordMotion(observed.shape)
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
        case .step(let index, let promptT):
            watch(index: index, promptT: promptT, observed: observed, events: events, frame: frame, t: t, emit: emit)
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
        phase = .step(index: index, promptT: t)
        blinksSincePrompt = 0
        actionSeen = false
        turnSince = nil
        nodBaseline = observed.measures.pose.pitch
        nodWentDown = false
        emit(.prompt(step: challenge.steps[index], index: index, of: challenge.steps.count, t: t, frame: frame,
                     timeout: settings.stepTimeout))
    }

    /// During a step: look for it, for later steps done too early, and for the deadline.
    private func watch(index: Int, promptT: Double, observed: FaceObservation, events: [Event], frame: Int, t: Double,
                       emit: (CheckOutput) -> Void) {
        let step = challenge.steps[index]
        var done = false
        var actions: [ChallengeStep] = []
        for event in events {
            switch event.payload {
            case .blink(_, let start, _) where start >= promptT:
                blinksSincePrompt += 1
            case .smile(_, .start, _):
                actions.append(.smile)
            case .mouthOpen(_, .start, _):
                actions.append(.openMouth)
            default:
                break
            }
        }
        let pose = observed.measures.pose
        let turn: ChallengeStep? = pose.yaw >= settings.turnYaw ? .turnLeft : pose.yaw <= -settings.turnYaw ? .turnRight : nil
        if let turn {
            turnSince = turnSince ?? t
            if t - (turnSince ?? t) >= settings.holdTurn { actions.append(turn) }
        } else {
            turnSince = nil
        }
        if let baseline = nodBaseline {
            if pose.pitch <= baseline - settings.nodPitch { nodWentDown = true }
            if nodWentDown && pose.pitch >= baseline - settings.nodPitch / 2 {
                actions.append(.nod)
                nodWentDown = false
            }
        }
        switch step {
        case .blink(let count): done = blinksSincePrompt >= count
        default: done = actions.contains(step)
        }
        // An action that a later step asks for, done before it was asked: not a live response.
        let later = challenge.steps[(index + 1)...].filter { !$0.isSameKind(as: step) }
        if !done, !actionSeen, actions.contains(where: { action in later.contains { $0.isSameKind(as: action) } }) {
            return fail(.outOfOrder, emit: emit)
        }
        if done { actionSeen = true }
        // Each step: its action, and (with an identity) a matching reading since its prompt.
        if actionSeen, identity != nil, (lastMatchT ?? -.infinity) < promptT {
            if t - promptT > settings.stepTimeout { fail(.timeout, emit: emit) }
            return
        }
        if actionSeen {
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
        } else if t - promptT > settings.stepTimeout {
            fail(.timeout, emit: emit)
        }
    }

    private func problem(with observed: FaceObservation) -> (adjust: AdjustReason, failure: FailureReason)? {
        if observed.box.width < settings.minFaceSize { return (.moveCloser, .tooSmall) }
        if observed.brightness < settings.minBrightness { return (.moreLight, .tooDark) }
        let pose = observed.measures.pose
        if abs(pose.yaw) > settings.maxTurn || abs(pose.pitch) > settings.maxTurn { return (.faceCamera, .turnedAway) }
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
        var right = SIMD2<Double>.zero, left = SIMD2<Double>.zero
        for i in 36...41 { right += SIMD2<Double>(shape[i]) }
        for i in 42...47 { left += SIMD2<Double>(shape[i]) }
        let iod = (((left - right) / 6) * ((left - right) / 6)).sum().squareRoot()
        guard iod > 0 else { return }
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
