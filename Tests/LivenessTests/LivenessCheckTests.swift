import Events
import Expressions
import FaceCore
import Landmarks
import Liveness
import Pipeline
import XCTest

/// The check's state machine driven frame by frame with constructed observations and events: a
/// person who answers the cues passes; one who acts at their own pace, before the cues or too
/// late, fails; turns that move as a plane are refused.
final class LivenessCheckTests: XCTestCase {
    /// A 30 fps stream with one face. `act` says, from the cues so far, what the person does at
    /// time `t`: events, and the face's shape and pose.
    private struct Person {
        var duration = 40.0
        var faces: (Double, [Cue]) -> [FaceObservation] = { _, _ in [LivenessCheckTests.face()] }
        var events: (Double, Int, [Cue]) -> [Event] = { _, _, _ in [] }
        var facesInView: (Double) -> Int = { _ in 1 }
    }

    private struct Cue {
        var t: Double
        var step: ChallengeStep
    }

    /// A face-like 68-point shape (jaw arc, eyes, nose, mouth), `depth` giving the nose and jaw a
    /// third dimension for turns: yaw moves the nose tip and the jaw line in opposite directions.
    private static func face(id: Int = 1, size: Int = 150, brightness: Double = 120, yaw: Double = 0, pitch: Double = 0,
                             smiling: Bool = false, mouthOpen: Bool = false, depth: Bool = true,
                             at centre: SIMD2<Float> = SIMD2(200, 200)) -> FaceObservation {
        var points: [SIMD2<Float>] = []
        let turn = Float(sin(yaw * .pi / 180)), squeeze = Float(cos(yaw * .pi / 180))
        for i in 0..<68 {
            let angle = Float(i) / 68 * 2 * .pi
            // Depth in units of the face's half width: the nose (27–35) stands out, the jaw (0–16) lies back.
            let z: Float = (27...35).contains(i) ? 0.6 : (0...16).contains(i) ? -0.5 : 0
            var x: Float = 60 * cos(angle), y: Float = 70 * sin(angle)
            if i >= 27 && i <= 35 { x = Float(i - 31) * 4; y = Float(i - 27) * 6 - 10 }
            let lift: Float = Float(sin(pitch * .pi / 180))
            x = depth ? x * squeeze + 60 * z * turn : x * squeeze
            y += depth ? 60 * z * lift : 0
            points.append(centre + SIMD2<Float>(x, y))
        }
        for i in 36...41 { points[i] = centre + SIMD2<Float>((-30 + Float(i - 36) * 3) * squeeze, -20) }
        for i in 42...47 { points[i] = centre + SIMD2<Float>((15 + Float(i - 42) * 3) * squeeze, -20) }
        let measures = FaceMeasures(earLeft: 0.3, earRight: 0.3, mar: 0.05, smile: 0, nose: SIMD2(0.5, 0.5),
                                    pose: HeadPose(yaw: yaw, pitch: pitch, roll: 0))
        let half = Float(size) / 2
        let origin: SIMD2<Float> = centre - SIMD2<Float>(half, half)
        return FaceObservation(id: id, box: FaceBox(x: Int(origin.x), y: Int(origin.y), width: size, height: size),
                               shape: FaceShape(points: points), measures: measures, brightness: brightness,
                               thresholds: FrameThresholds(earCloseLeft: 0.19, earCloseRight: 0.19, smile: 0.35, mar: 0.33),
                               smiling: smiling, mouthOpen: mouthOpen)
    }

    /// Runs the check on `person`. The eyes of every face are shut (EAR 0.08) from the `start` of
    /// each blink event until it is reported, `closed` later.
    private func run(_ challenge: String, seed: UInt64 = 1, settings: CheckSettings = CheckSettings(),
                     _ person: Person) throws -> (outputs: [CheckOutput], verdict: CheckVerdict) {
        let check = LivenessCheck(challenge: try Challenge(parsing: challenge), settings: settings, seed: seed)
        var outputs: [CheckOutput] = []
        var cues: [Cue] = []
        var frame = 0
        while Double(frame) / 30 <= person.duration && check.verdict == nil {
            let t = Double(frame) / 30
            // The events of the next `closed` seconds say whether the eyes are shut now.
            let shut = (0...5).contains { ahead in
                person.events(t + Double(ahead) / 30, frame + ahead, cues).contains { event in
                    if case .blink(_, let start, _) = event.payload { return start <= t + 1e-9 } else { return false }
                }
            }
            let faces = person.faces(t, cues).map { face -> FaceObservation in
                var face = face
                if shut { face.measures.earLeft = 0.08; face.measures.earRight = 0.08 }
                return face
            }
            check.observe(frame: frame, t: t, events: person.events(t, frame, cues), faces: faces,
                          facesInView: person.facesInView(t)) { output in
                outputs.append(output)
                if case .cue(let step, _, _, let t, _, _) = output { cues.append(Cue(t: t, step: step)) }
            }
            frame += 1
        }
        check.finish { outputs.append($0) }
        return (outputs, try XCTUnwrap(check.verdict))
    }

    /// How long a blink's eyes stay shut: five frames at 30 fps.
    private static let closed = 5.0 / 30

    /// A blink whose eyes were half closed from `start` for `closed`, reported when they open.
    private func blink(start: Double, frame: Int) -> Event {
        Event(t: start + Self.closed, frame: frame, .blink(face: 1, start: start, duration: Self.closed))
    }

    /// Blinks `latency` s after each cue (reported `closed` after that).
    private func blinksOnCue(latency: Double, count: Int = 1) -> (Double, Int, [Cue]) -> [Event] {
        { t, frame, cues in
            var events: [Event] = []
            for cue in cues {
                for n in 0..<count {
                    let start: Double = cue.t + latency + Double(n) * 0.4
                    if abs(start + Self.closed - t) < 0.5 / 30 { events.append(self.blink(start: start, frame: frame)) }
                }
            }
            return events
        }
    }

    private func cueTimes(_ outputs: [CheckOutput]) -> [Double] {
        outputs.compactMap { if case .cue(_, _, _, let t, _, _) = $0 { return t } else { return nil } }
    }

    func testABlinkOnEachCuePasses() throws {
        var person = Person()
        person.events = blinksOnCue(latency: 0.4)
        let (outputs, verdict) = try run("blink", person)
        XCTAssertEqual(outputs.first, .prompt(step: .blink(count: 1), index: 0, of: 1, t: 1, frame: 30, timeout: 5))
        XCTAssertTrue(verdict.passed, "\(verdict)")
        XCTAssertEqual(verdict.steps[0].latencies.count, 4, "four answered cues of five")
        for latency in verdict.steps[0].latencies { XCTAssertEqual(latency, 0.4, accuracy: 0.04) }
        let cues = cueTimes(outputs)
        XCTAssertEqual(cues.count, 4)
        // Each hold is drawn from 0.8–3.2 s after the face is ready (the prompt, or the last response).
        XCTAssertTrue((1.8...4.3).contains(cues[0]), "\(cues)")
        for (previous, next) in zip(cues, cues.dropFirst()) {
            XCTAssertTrue((0.4 + Self.closed + 0.8...0.4 + Self.closed + 3.2 + 0.07).contains(next - previous), "\(cues)")
        }
    }

    func testTheSeedDrawsTheCueTimes() throws {
        var person = Person()
        person.events = blinksOnCue(latency: 0.4)
        let a = cueTimes(try run("blink", seed: 7, person).outputs), b = cueTimes(try run("blink", seed: 7, person).outputs)
        let c = cueTimes(try run("blink", seed: 8, person).outputs)
        XCTAssertEqual(a, b)
        XCTAssertNotEqual(a, c)
    }

    func testBlinksAtTheirOwnPaceFail() throws {
        // A replayed video: a blink every 2.5 s whatever the cues say.
        var person = Person()
        person.events = { t, frame, _ in
            let start = (t - Self.closed).truncatingRemainder(dividingBy: 2.5)
            return t > 0.2 && abs(start - 1.2) < 0.5 / 30 ? [self.blink(start: t - Self.closed, frame: frame)] : []
        }
        for seed in 1...10 as ClosedRange<UInt64> {
            let verdict = try run("blink", seed: seed, person).verdict
            XCTAssertFalse(verdict.passed, "seed \(seed): \(verdict)")
            XCTAssertTrue([.timeout, .earlyResponse, .unsteadyTiming].contains(verdict.reason), "\(verdict)")
        }
    }

    func testBlinksBeforeTheirCueCountAgainstTheStep() throws {
        // Blinks 0.5 s after each prompt or response: during every hold.
        var person = Person()
        person.events = { t, frame, _ in abs(t - 1.5) < 0.5 / 30 ? [self.blink(start: 1.35, frame: frame)] : [] }
        var verdict = try run("blink", person).verdict
        XCTAssertFalse(verdict.passed)
        XCTAssertEqual(verdict.steps[0].early, 1, "one early blink")
        // A blink every 0.47 s whatever the cues: with the chance test out of the way, the
        // eleventh blink before its cue, one more than the limit, fails the step.
        person.events = { t, frame, _ in
            let k = ((t - Self.closed - 1.5) / (0.3 + Self.closed)).rounded()
            let start = 1.5 + k * (0.3 + Self.closed)
            return k >= 0 && abs(start + Self.closed - t) < 0.5 / 30 ? [self.blink(start: start, frame: frame)] : []
        }
        var settings = CheckSettings()
        settings.chanceLevel = 1
        verdict = try run("blink", settings: settings, person).verdict
        XCTAssertEqual(verdict.reason, .earlyResponse, "\(verdict)")
        XCTAssertEqual(verdict.steps[0].early, settings.blinkEarlyLimit + 1)
        // A smile before its cue restarts the hold; the third fails the step.
        person.events = { t, frame, cues in
            cues.isEmpty && [1.5, 3.5, 5.5, 7.5].contains(where: { abs(t - $0) < 0.5 / 30 })
                ? [Event(t: t, frame: frame, .smile(face: 1, state: .start, score: 0.6))] : []
        }
        settings.hold = 2.5...2.5
        verdict = try run("smile", settings: settings, person).verdict
        XCTAssertEqual(verdict.reason, .earlyResponse, "\(verdict)")
        XCTAssertEqual(verdict.steps[0].early, 3)
    }

    /// Blinks `count` times, 0.4 s apart, from `latency` s after each cue and, on its own, during
    /// the holds: the first `delays[0]` s after the prompt and after each answer, each next one
    /// `delays[k]` s after the last opened.
    private func blinksOnCueAndInTheHolds(latency: Double, delays: [Double], count: Int = 1) -> (Double, Int, [Cue]) -> [Event] {
        { t, frame, cues in
            // The prompt comes at 1 s; a hold begins when the answer before it is reported.
            let last = latency + Double(count - 1) * 0.4
            let restarts = [1.0] + cues.map { $0.t + last + Self.closed }
            var starts = cues.flatMap { cue in (0..<count).map { cue.t + latency + Double($0) * 0.4 } }
            for restart in restarts {
                var at = restart
                for delay in delays {
                    starts.append(at + delay)
                    at += delay + Self.closed
                }
            }
            return starts.filter { abs($0 + Self.closed - t) < 0.5 / 30 }.map { self.blink(start: $0, frame: frame) }
        }
    }

    func testAPersonWhoBlinksWhileHoldingButAnswersEveryCuePasses() throws {
        // One blink of their own in every hold, as a person who blinks a dozen times a minute makes:
        // more early blinks than a fixed limit of two would allow.
        var person = Person()
        person.events = blinksOnCueAndInTheHolds(latency: 0.4, delays: [0.5])
        for seed in 1...5 as ClosedRange<UInt64> {
            let verdict = try run("blink", seed: seed, person).verdict
            XCTAssertTrue(verdict.passed, "seed \(seed): \(verdict)")
            XCTAssertGreaterThanOrEqual(verdict.steps[0].early, 4, "seed \(seed)")
            XCTAssertLessThan(try XCTUnwrap(verdict.steps[0].chance), 0.01, "seed \(seed)")
            XCTAssertGreaterThan(verdict.steps[0].holding, 4 * 0.8, "seed \(seed)")
        }
    }

    func testAFaceThatActsAsOftenInTheHoldsAsInTheWindowsFails() throws {
        // Two blinks in every short hold: at that pace, blinks in four or five windows of 0.75 s
        // could well be chance. Without the chance test the same answers pass.
        var person = Person()
        person.events = blinksOnCueAndInTheHolds(latency: 0.4, delays: [0.2, 0.2])
        var settings = CheckSettings()
        settings.hold = 0.8...0.8
        let verdict = try run("blink", settings: settings, person).verdict
        XCTAssertEqual(verdict.reason, .earlyResponse, "\(verdict)")
        XCTAssertLessThanOrEqual(verdict.steps[0].early, settings.blinkEarlyLimit, "the chance, not the limit")
        XCTAssertEqual(verdict.steps[0].latencies.count, 5, "a fifth trial after four answers that could be chance")
        XCTAssertGreaterThan(try XCTUnwrap(verdict.steps[0].chance), settings.chanceLevel)
        settings.chanceLevel = 1
        XCTAssertTrue(try run("blink", settings: settings, person).verdict.passed)
    }

    func testTheChanceOfAnswersAtRandom() throws {
        let settings = CheckSettings()
        // No early blink in 6 s of holds: with the prior (half a blink in 3 s), 0.5 blinks in 9 s;
        // a 0.75 s window holds one with probability 1 − e^(−0.041667) = 0.040811, four windows
        // of four 0.040811^4.
        XCTAssertEqual(try XCTUnwrap(settings.chance(of: .blink(count: 1), answered: 4, cued: 4, early: 0, runs: 0, holding: 6)),
                       2.77389e-6, accuracy: 1e-10)
        // Five early blinks in 6 s: 5.5 in 9 s; a window holds one with probability
        // 1 − e^(−0.458333) = 0.367663; at least four of five windows 0.0644905.
        XCTAssertEqual(try XCTUnwrap(settings.chance(of: .blink(count: 1), answered: 4, cued: 5, early: 5, runs: 5, holding: 6)),
                       0.0644905, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(settings.chance(of: .blink(count: 1), answered: 0, cued: 5, early: 3, runs: 3, holding: 10)), 1,
                       accuracy: 1e-12)
        // More early blinks in the same holds, or fewer answers, make chance likelier.
        let few = try XCTUnwrap(settings.chance(of: .blink(count: 1), answered: 4, cued: 5, early: 1, runs: 1, holding: 10))
        XCTAssertLessThan(few, try XCTUnwrap(settings.chance(of: .blink(count: 1), answered: 4, cued: 5, early: 4, runs: 4, holding: 10)))
        XCTAssertLessThan(few, try XCTUnwrap(settings.chance(of: .blink(count: 1), answered: 3, cued: 5, early: 1, runs: 1, holding: 10)))
        // blink:2, a 1.35 s window: no early blink in 6 s, 0.5 in 9 s with the prior; two or more
        // in a window with probability 1 − e^(−0.075) × 1.075 = 0.00267575, but the prior's half
        // blink is taken as a run too: one in a window with probability 1 − e^(−0.075) = 0.0722565,
        // four windows of four that to the fourth.
        XCTAssertEqual(try XCTUnwrap(settings.chance(of: .blink(count: 2), answered: 4, cued: 4, early: 0, runs: 0, holding: 6)),
                       2.72589e-5, accuracy: 1e-10)
        // Six early blinks in 6 s, none of them in runs: 6.5 in 9 s, two in a window with
        // probability 1 − e^(−0.975) × 1.975 = 0.255045; four of five windows 0.0168396. The same
        // six blinks in three runs: 3.5 runs in 9 s, a window holds one with probability
        // 1 − e^(−0.525) = 0.408445, four of five 0.0936862.
        XCTAssertEqual(try XCTUnwrap(settings.chance(of: .blink(count: 2), answered: 4, cued: 5, early: 6, runs: 0, holding: 6)),
                       0.0168396, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(settings.chance(of: .blink(count: 2), answered: 4, cued: 5, early: 6, runs: 3, holding: 6)),
                       0.0936862, accuracy: 1e-6)
        // The other steps count their early actions instead.
        XCTAssertNil(settings.chance(of: .smile, answered: 4, cued: 4, early: 0, runs: 0, holding: 5))
        XCTAssertNil(settings.chance(of: .turnLeft, answered: 2, cued: 2, early: 0, runs: 0, holding: 5))
    }

    func testALateOrTooFastBlinkIsNoAnswer() throws {
        var person = Person()
        person.events = blinksOnCue(latency: 1.2)
        let late = try run("blink", person).verdict
        XCTAssertEqual(late.reason, .timeout, "\(late)")
        XCTAssertEqual(late.steps[0].missed, 2, "a blink step fails at its second unanswered cue")
        // 0.05 s after the cue is no reaction to it: the blink was on its way before the cue.
        person.events = blinksOnCue(latency: 0.05)
        let fast = try run("blink", person).verdict
        XCTAssertFalse(fast.passed)
        XCTAssertEqual(fast.reason, .earlyResponse, "\(fast)")
    }

    /// Blinks after each cue with the given delays, cue by cue (the last delay for later cues).
    private func blinksOnCue(latencies: [Double]) -> (Double, Int, [Cue]) -> [Event] {
        { t, frame, cues in
            var events: [Event] = []
            for (k, cue) in cues.enumerated() {
                let start = cue.t + latencies[min(k, latencies.count - 1)]
                if abs(start + Self.closed - t) < 0.5 / 30 { events.append(self.blink(start: start, frame: frame)) }
            }
            return events
        }
    }

    func testBlinkAnswersMustComeAtASteadyDelay() throws {
        // Every answer is in its window (0.15–0.9 s), but no four lie within 0.45 s of each other:
        // a replay's own blinks landing anywhere in the windows.
        var person = Person()
        person.events = blinksOnCue(latencies: [0.2, 0.8, 0.3, 0.85, 0.5])
        let unsteady = try run("blink", person).verdict
        XCTAssertFalse(unsteady.passed)
        XCTAssertEqual(unsteady.reason, .unsteadyTiming, "\(unsteady)")
        XCTAssertEqual(unsteady.steps[0].failure, .unsteadyTiming)
        XCTAssertEqual(unsteady.steps[0].latencies.count, 5, "all five trials were run before giving up")
        // The same spread once, then steady: the fifth trial gives four answers within 0.45 s.
        person.events = blinksOnCue(latencies: [0.3, 0.85, 0.4, 0.5, 0.6])
        let rescued = try run("blink", person).verdict
        XCTAssertTrue(rescued.passed, "\(rescued)")
        XCTAssertEqual(rescued.steps[0].latencies.count, 5)
        // Four unsteady answers and a missed cue: no trial left to steady them.
        person.events = blinksOnCue(latencies: [0.2, 0.8, 0.3, 0.85, 2.0])
        let missed = try run("blink", person).verdict
        XCTAssertEqual(missed.reason, .unsteadyTiming, "\(missed)")
        XCTAssertEqual(missed.steps[0].missed, 1)
        // A person with a wider spread of reaction times (0.3–0.7 s) passes where four of them
        // are within the limit.
        person.events = blinksOnCue(latencies: [0.3, 0.7, 0.55, 0.6, 0.4])
        XCTAssertTrue(try run("blink", person).verdict.passed)
    }

    func testAPersonWhoBlinksOnTheirOwnAnswersBlinkTwiceToo() throws {
        // One blink of their own in the middle of every 3 s hold and two on every cue: their
        // single blinks weigh against the pairs as in `blink`, at a Poisson pace, and none of
        // them is a burst. The same blink 0.5 s after each answer makes a burst with it.
        var person = Person()
        person.events = blinksOnCueAndInTheHolds(latency: 0.4, delays: [1.5], count: 2)
        var settings = CheckSettings()
        settings.hold = 3...3
        let verdict = try run("blink:2", settings: settings, person).verdict
        XCTAssertTrue(verdict.passed, "\(verdict)")
        XCTAssertGreaterThan(verdict.steps[0].early, settings.earlyLimit)
        XCTAssertEqual(verdict.steps[0].earlyRuns, 0)
        XCTAssertLessThan(try XCTUnwrap(verdict.steps[0].chance), 0.001)
        person.events = blinksOnCueAndInTheHolds(latency: 0.4, delays: [0.5], count: 2)
        let bursts = try run("blink:2", settings: settings, person).verdict
        XCTAssertEqual(bursts.steps[0].earlyRuns, bursts.steps[0].early - 1, "all but the first, before any answer: \(bursts)")
        XCTAssertGreaterThan(try XCTUnwrap(bursts.steps[0].chance), try XCTUnwrap(verdict.steps[0].chance))
    }

    func testAFaceThatBlinksInPairsInTheHoldsFailsBlinkTwice() throws {
        // A pair of blinks in every hold of 1.6 s, as a video that blinks in bursts shows: pairs
        // in four or five windows could well be chance at that pace of pairs, though not at the
        // Poisson pace of as many single blinks.
        var person = Person()
        person.events = blinksOnCueAndInTheHolds(latency: 0.4, delays: [0.2, 0.2], count: 2)
        var settings = CheckSettings()
        settings.hold = 1.6...1.6
        let verdict = try run("blink:2", settings: settings, person).verdict
        XCTAssertEqual(verdict.reason, .earlyResponse, "\(verdict)")
        let step = verdict.steps[0]
        XCTAssertLessThanOrEqual(step.early, settings.blinkEarlyLimit, "the chance, not the limit")
        XCTAssertGreaterThanOrEqual(step.earlyRuns, 4, "a pair in every hold")
        XCTAssertEqual(step.latencies.count, 5, "a fifth trial after four answers that could be chance")
        XCTAssertGreaterThan(try XCTUnwrap(step.chance), settings.chanceLevel)
        let singles = try XCTUnwrap(settings.chance(of: .blink(count: 2), answered: 5, cued: 5, early: step.early, runs: 0,
                                                    holding: step.holding))
        XCTAssertLessThanOrEqual(singles, settings.chanceLevel, "the pairs, not the number of blinks")
        settings.chanceLevel = 1
        XCTAssertTrue(try run("blink:2", settings: settings, person).verdict.passed)
    }

    func testTwoBlinksPerCueForBlinkTwice() throws {
        var person = Person()
        person.events = blinksOnCue(latency: 0.4, count: 2)
        XCTAssertTrue(try run("blink:2", person).verdict.passed)
        person.events = blinksOnCue(latency: 0.4, count: 1)
        let single = try run("blink:2", person).verdict
        XCTAssertFalse(single.passed)
        XCTAssertEqual(single.reason, .timeout)
    }

    func testSmilesAndOpenMouthsAnswerTheirCuesAndMustRelaxBetween() throws {
        for (step, event) in [("smile", { (t: Double, f: Int) in Event(t: t, frame: f, .smile(face: 1, state: .start, score: 0.6)) }),
                              ("open_mouth", { (t: Double, f: Int) in Event(t: t, frame: f, .mouthOpen(face: 1, state: .start, mar: 0.6)) })] {
            var person = Person()
            person.events = { t, frame, cues in cues.contains { abs(t - $0.t - 0.6) < 0.5 / 30 } ? [event(t, frame)] : [] }
            // The expression is held for 1 s after each start.
            person.faces = { t, cues in
                let active = cues.contains { t >= $0.t + 0.6 && t < $0.t + 1.6 }
                return [Self.face(smiling: step == "smile" && active, mouthOpen: step == "open_mouth" && active)]
            }
            let (outputs, verdict) = try run(step, person)
            XCTAssertTrue(verdict.passed, "\(step): \(verdict)")
            XCTAssertEqual(verdict.steps[0].latencies.count, 4)
            let cues = cueTimes(outputs)
            for (previous, next) in zip(cues, cues.dropFirst()) {
                XCTAssertGreaterThanOrEqual(next - previous, 1.6 + 0.8 - 0.04, "the next hold starts once the face is neutral")
            }
        }
    }

    func testATurnMustLeaveThePlane() throws {
        // Turned 30° from 0.5 s after each cue for 0.6 s.
        func turning(depth: Bool) -> Person {
            var person = Person()
            person.faces = { t, cues in
                let turned = cues.contains { t >= $0.t + 0.5 && t < $0.t + 1.1 }
                return [Self.face(yaw: turned ? 30 : 0, depth: depth)]
            }
            return person
        }
        let head = try run("turn_left", turning(depth: true)).verdict
        XCTAssertTrue(head.passed, "\(head)")
        XCTAssertEqual(head.steps[0].latencies.first ?? 0, 0.5, accuracy: 0.04)
        // The same pose from a flat face (a photo turned by hand): the shape only narrows.
        let photo = try run("turn_left", turning(depth: false)).verdict
        XCTAssertFalse(photo.passed)
        XCTAssertEqual(photo.reason, .flatFace, "\(photo)")
        XCTAssertEqual(photo.steps[0].flat, 2)
        XCTAssertFalse(try run("turn_right", turning(depth: true)).verdict.passed, "the other way is no answer")
    }

    func testANodGoesDownAndBackUpOutOfThePlane() throws {
        var person = Person()
        person.faces = { t, cues in
            let down = cues.contains { t >= $0.t + 0.4 && t < $0.t + 0.8 }
            return [Self.face(pitch: down ? -15 : 0)]
        }
        let nod = try run("nod", person).verdict
        XCTAssertTrue(nod.passed, "\(nod)")
        XCTAssertEqual(nod.steps[0].latencies.first ?? 0, 0.8, accuracy: 0.04, "a nod is answered when the head is back up")
    }

    func testNoFaceFailsAfterTheDeadlineAndSaysWhy() throws {
        var person = Person()
        person.faces = { _, _ in [] }
        let (outputs, verdict) = try run("blink", person)
        XCTAssertEqual(outputs.first, .adjust(.noFace, t: 0, frame: 0))
        XCTAssertEqual(verdict.reason, .noFace)
    }

    func testASmallOrDarkOrTurnedFaceIsRefusedWithAPrompt() throws {
        for (face, adjust, reason) in [(Self.face(size: 60), AdjustReason.moveCloser, FailureReason.tooSmall),
                                       (Self.face(brightness: 20), .moreLight, .tooDark),
                                       (Self.face(yaw: 35), .faceCamera, .turnedAway),
                                       (Self.face(pitch: 40), .faceCamera, .turnedAway)] {
            var person = Person()
            person.faces = { _, _ in [face] }
            let (outputs, verdict) = try run("blink", person)
            XCTAssertEqual(outputs.first, .adjust(adjust, t: 0, frame: 0))
            XCTAssertEqual(verdict.reason, reason)
        }
        // A webcam below the screen sees faces pitched by 20–30°: still usable.
        var person = Person()
        person.faces = { _, _ in [Self.face(pitch: 25)] }
        person.events = blinksOnCue(latency: 0.4)
        XCTAssertTrue(try run("blink", person).verdict.passed)
    }

    func testAnotherFaceMidCheckFailsButATrackerHiccupDoesNot() throws {
        var person = Person()
        person.events = blinksOnCue(latency: 0.4)
        // Another face far from the first.
        person.faces = { t, _ in [Self.face(id: t < 1.5 ? 1 : 2, at: t < 1.5 ? SIMD2(200, 200) : SIMD2(450, 200))] }
        XCTAssertEqual(try run("blink", person).verdict.reason, .faceSwapped)
        // The same face under a new track id (the tracker lost it in a fast move): carries on.
        person.faces = { t, _ in [Self.face(id: t < 1.5 ? 1 : 2, at: t < 1.5 ? SIMD2(200, 200) : SIMD2(240, 210))] }
        XCTAssertTrue(try run("blink", person).verdict.passed)
        // The old track's fit shrinks off the face for a few frames (to 95 px, drifting down and
        // right), stays so until `takeOver`, then a scan finds the face where it was, at its size,
        // as a new track.
        func shrinking(takeOver: Double) -> (Double, [Cue]) -> [FaceObservation] {
            { t, _ in
                if t < 1.5 { return [Self.face(id: 1)] }
                if t >= takeOver { return [Self.face(id: 2, at: SIMD2(215, 195))] }
                let shrink = Float(min((t - 1.5) / 0.2, 1))
                return [Self.face(id: 1, size: 150 - Int(55 * shrink), at: SIMD2(200 + 30 * shrink, 200 + 30 * shrink))]
            }
        }
        // Straight after the shrinking: the same face. Seen against the shrunken box alone it was
        // a swap (check-eval's clm-franck).
        person.faces = shrinking(takeOver: 1.7)
        XCTAssertTrue(try run("blink", person).verdict.passed)
        // A face of that size only after the old one was small for longer than the reacquire
        // time is another face.
        person.faces = shrinking(takeOver: 2.3)
        XCTAssertEqual(try run("blink", person).verdict.reason, .faceSwapped)
        person.faces = { t, _ in t < 1.5 ? [Self.face()] : [] }
        XCTAssertEqual(try run("blink", person).verdict.reason, .faceLost)
        person.faces = { _, _ in [Self.face()] }
        person.facesInView = { t in t < 1.5 ? 1 : 2 }
        XCTAssertEqual(try run("blink", person).verdict.reason, .multipleFaces)
        // A second box for a frame (a false detection) is not a second person.
        person.facesInView = { t in abs(t - 2) < 0.5 / 30 ? 2 : 1 }
        XCTAssertTrue(try run("blink", person).verdict.passed)
    }

    func testStepsRunInOrderEachWithItsPrompt() throws {
        var person = Person()
        person.events = { t, frame, cues in
            guard let cue = cues.last(where: { abs(t - $0.t - 0.4 - Self.closed) < 0.5 / 30 }) else { return [] }
            if case .blink = cue.step { return [self.blink(start: t - Self.closed, frame: frame)] }
            return [Event(t: t, frame: frame, .mouthOpen(face: 1, state: .start, mar: 0.6))]
        }
        person.faces = { t, cues in
            [Self.face(mouthOpen: cues.contains { $0.step == .openMouth && t >= $0.t + 0.5 && t < $0.t + 1.2 })]
        }
        let (outputs, verdict) = try run("blink,open_mouth", person)
        XCTAssertTrue(verdict.passed, "\(verdict)")
        let prompts = outputs.compactMap { output -> String? in
            if case .prompt(let step, _, _, _, _, _) = output { return step.description }
            return nil
        }
        XCTAssertEqual(prompts, ["blink", "open_mouth"])
        XCTAssertLessThan(try XCTUnwrap(verdict.steps[0].doneT), verdict.steps[1].promptT + 1e-9)
    }

    func testARandomChallengeIsReproducibleAndStartsWithOneBlinkPerCue() {
        let a = Challenge.random(seed: 42), b = Challenge.random(seed: 42)
        XCTAssertEqual(a, b)
        for seed in 0..<50 as Range<UInt64> {
            let challenge = Challenge.random(seed: seed)
            XCTAssertEqual(challenge.steps.first, .blink(count: 1), "seed \(seed): \(challenge)")
            XCTAssertFalse(challenge.steps.dropFirst().contains { if case .blink = $0 { return true } else { return false } },
                           "seed \(seed): \(challenge)")
            XCTAssertTrue((2...3).contains(challenge.steps.count))
        }
        XCTAssertNotEqual(Set((0..<50 as Range<UInt64>).map { Challenge.random(seed: $0).description }).count, 1)
    }

    func testOutputLineFormats() throws {
        var person = Person()
        person.events = blinksOnCue(latency: 0.4)
        let (outputs, verdict) = try run("blink", person)
        XCTAssertEqual(outputs.first?.jsonLine, #"{"type":"prompt","t":1,"frame":30,"step":"blink","index":0,"of":1,"timeout_s":5}"# + "\n")
        let cue = try XCTUnwrap(outputs.first { if case .cue = $0 { return true } else { return false } })
        XCTAssertTrue(cue.jsonLine.hasSuffix(#","step":"blink","trial":1,"of":5,"window_s":[0.15,0.9]}"# + "\n"), cue.jsonLine)
        let line = try XCTUnwrap(outputs.last?.jsonLine)
        XCTAssertTrue(line.hasPrefix(#"{"type":"verdict","t":"#), line)
        XCTAssertTrue(line.contains(#""pass":true,"reason":null,"face":1,"challenge":"blink","steps":[{"step":"blink","result":"done","prompt_t":1,"done_t":"#), line)
        XCTAssertTrue(line.contains(#""latencies_s":[0.4,0.4,0.4,0.4],"missed":0,"early":0,"early_runs":0,"flat":0,"holding_s":"#), line)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["t"] as? Double ?? 0, try XCTUnwrap(verdict.steps[0].doneT), accuracy: 0.001)
        // The holds: from each ready face (the prompt, then each answer reported) to its cue.
        let cues = cueTimes(outputs)
        let readies = [1.0] + cues.dropLast().map { $0 + 0.4 + Self.closed }
        let holding = zip(readies, cues).map { $1 - $0 }.reduce(0, +)
        let step = try XCTUnwrap((object["steps"] as? [[String: Any]])?.first)
        XCTAssertEqual(step["holding_s"] as? Double ?? 0, holding, accuracy: 0.035 * 4)
        // No early blink: the chance is four windows of 0.75 s each holding one of the prior's
        // blinks, half a blink in (holding + 3) s.
        let p = 1 - exp(-0.75 * 0.5 / (holding + 3))
        XCTAssertEqual(step["chance"] as? Double ?? 1, p * p * p * p, accuracy: 2e-6)
    }
}
