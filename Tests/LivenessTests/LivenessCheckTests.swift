import Events
import Expressions
import Landmarks
import Liveness
import Pipeline
import XCTest

/// The check's state machine driven frame by frame with constructed observations and events.
final class LivenessCheckTests: XCTestCase {
    /// A 30 fps stream with one face; the closures say what happens at each time.
    private struct Script {
        var duration = 10.0
        var faces: (Double) -> [FaceObservation] = { _ in [Self.face()] }
        var events: (Double, Int) -> [Event] = { _, _ in [] }
        var facesInView: (Double) -> Int = { _ in 1 }

        static func face(id: Int = 1, size: Int = 150, brightness: Double = 120, yaw: Double = 0, pitch: Double = 0,
                         wobble: Float = 0) -> FaceObservation {
            // A face-like 68-point shape: jaw arc, eyes, nose, mouth (exact positions don't matter here).
            var points: [SIMD2<Float>] = []
            for i in 0..<68 {
                let angle = Float(i) / 68 * 2 * .pi
                points.append(SIMD2(200 + 60 * cos(angle) + (i % 3 == 0 ? wobble : 0), 200 + 70 * sin(angle)))
            }
            for i in 36...41 { points[i] = SIMD2(170 + Float(i - 36) * 3, 180) }
            for i in 42...47 { points[i] = SIMD2(225 + Float(i - 42) * 3, 180) }
            let measures = FaceMeasures(earLeft: 0.3, earRight: 0.3, mar: 0.05, smile: 0, nose: SIMD2(0.5, 0.5),
                                        pose: HeadPose(yaw: yaw, pitch: pitch, roll: 0))
            return FaceObservation(id: id, box: FaceBox(x: 120, y: 120, width: size, height: size), shape: FaceShape(points: points),
                                   measures: measures, brightness: brightness,
                                   thresholds: FrameThresholds(earCloseLeft: 0.19, earCloseRight: 0.19, smile: 0.35, mar: 0.33))
        }
    }

    private func run(_ challenge: String, _ script: Script) throws -> (outputs: [CheckOutput], verdict: CheckVerdict) {
        let check = LivenessCheck(challenge: try Challenge(parsing: challenge))
        var outputs: [CheckOutput] = []
        var frame = 0
        while Double(frame) / 30 <= script.duration && check.verdict == nil {
            let t = Double(frame) / 30
            check.observe(frame: frame, t: t, events: script.events(t, frame), faces: script.faces(t),
                          facesInView: script.facesInView(t)) { outputs.append($0) }
            frame += 1
        }
        check.finish { outputs.append($0) }
        return (outputs, try XCTUnwrap(check.verdict))
    }

    private func blink(at t: Double, frame: Int) -> [Event] {
        [Event(t: t, frame: frame, .blink(face: 1, start: t - 0.15, duration: 0.15))]
    }

    func testABlinkAfterThePromptPasses() throws {
        var script = Script()
        script.events = { t, frame in abs(t - 2.0) < 0.001 ? self.blink(at: t, frame: frame) : [] }
        let (outputs, verdict) = try run("blink", script)
        XCTAssertEqual(outputs.first, .prompt(step: .blink(count: 1), index: 0, of: 1, t: 1, frame: 30, timeout: 5))
        XCTAssertTrue(verdict.passed)
        XCTAssertNil(verdict.reason)
        XCTAssertEqual(verdict.steps.first?.doneT ?? 0, 2.0, accuracy: 1e-9)
    }

    func testABlinkBeforeThePromptDoesNotCount() throws {
        var script = Script()
        script.events = { t, frame in abs(t - 0.6) < 0.001 ? self.blink(at: t, frame: frame) : [] }
        let (_, verdict) = try run("blink", script)
        XCTAssertFalse(verdict.passed)
        XCTAssertEqual(verdict.reason, .timeout)
        XCTAssertEqual(verdict.t, 6.0 + 1.0 / 30, accuracy: 0.05, "fails when the 5 s after the prompt at 1 s run out")
    }

    func testTwoBlinksAreNeededForBlinkTwice() throws {
        var script = Script()
        script.events = { t, frame in abs(t - 2.0) < 0.001 || abs(t - 2.5) < 0.001 ? self.blink(at: t, frame: frame) : [] }
        let (_, verdict) = try run("blink:2", script)
        XCTAssertTrue(verdict.passed)
        XCTAssertEqual(verdict.steps[0].doneT ?? 0, 2.5, accuracy: 1e-9)
    }

    func testNoFaceFailsAfterTheDeadlineAndSaysWhy() throws {
        var script = Script()
        script.faces = { _ in [] }
        let (outputs, verdict) = try run("blink", script)
        XCTAssertEqual(outputs.first, .adjust(.noFace, t: 0, frame: 0))
        XCTAssertEqual(verdict.reason, .noFace)
    }

    func testASmallOrDarkOrTurnedFaceIsRefusedWithAPrompt() throws {
        for (face, adjust, reason) in [(Script.face(size: 60), AdjustReason.moveCloser, FailureReason.tooSmall),
                                       (Script.face(brightness: 20), .moreLight, .tooDark),
                                       (Script.face(yaw: 35), .faceCamera, .turnedAway)] {
            var script = Script()
            script.faces = { _ in [face] }
            let (outputs, verdict) = try run("blink", script)
            XCTAssertEqual(outputs.first, .adjust(adjust, t: 0, frame: 0))
            XCTAssertEqual(verdict.reason, reason)
        }
    }

    func testAnotherFaceMidCheckFails() throws {
        var script = Script()
        script.faces = { t in [Script.face(id: t < 1.5 ? 1 : 2)] }
        XCTAssertEqual(try run("blink", script).verdict.reason, .faceSwapped)
        script.faces = { t in t < 1.5 ? [Script.face()] : [] }
        XCTAssertEqual(try run("blink", script).verdict.reason, .faceLost)
        script.faces = { _ in [Script.face()] }
        script.facesInView = { t in t < 1.5 ? 1 : 2 }
        XCTAssertEqual(try run("blink", script).verdict.reason, .multipleFaces)
    }

    func testALaterStepDoneEarlyFails() throws {
        var script = Script()
        script.events = { t, frame in
            abs(t - 1.5) < 0.001 ? [Event(t: t, frame: frame, .smile(face: 1, state: .start, score: 0.6))] : []
        }
        XCTAssertEqual(try run("blink,smile", script).verdict.reason, .outOfOrder)
    }

    func testTurnsAndNodsComeFromThePose() throws {
        var script = Script()
        script.faces = { t in [Script.face(yaw: t > 1.5 && t < 2.0 ? 28 : 0)] }
        let turn = try run("turn_left", script).verdict
        XCTAssertTrue(turn.passed)
        XCTAssertFalse(try run("turn_right", script).verdict.passed)
        script.faces = { t in [Script.face(pitch: t > 1.5 && t < 1.9 ? -15 : 0)] }
        XCTAssertTrue(try run("nod", script).verdict.passed)
    }

    func testStepsRunInOrderAndEachIsTimed() throws {
        var script = Script()
        script.events = { t, frame in
            if abs(t - 1.5) < 0.001 { return self.blink(at: t, frame: frame) }
            if abs(t - 2.5) < 0.001 { return [Event(t: t, frame: frame, .mouthOpen(face: 1, state: .start, mar: 0.6))] }
            return []
        }
        let (outputs, verdict) = try run("blink,open_mouth", script)
        XCTAssertTrue(verdict.passed)
        let prompts = outputs.compactMap { output -> String? in
            if case .prompt(let step, _, _, _, _, _) = output { return step.description }
            return nil
        }
        XCTAssertEqual(prompts, ["blink", "open_mouth"])
        XCTAssertEqual(verdict.steps.map { $0.doneT ?? -1 }, [1.5, 2.5].map { $0 }, "")
    }

    func testARandomChallengeIsReproducibleAndStartsWithABlink() {
        let a = Challenge.random(seed: 42), b = Challenge.random(seed: 42)
        XCTAssertEqual(a, b)
        for seed in 0..<50 as Range<UInt64> {
            let challenge = Challenge.random(seed: seed)
            guard case .blink = challenge.steps.first else { return XCTFail("seed \(seed): \(challenge)") }
            XCTAssertTrue((2...3).contains(challenge.steps.count))
        }
        XCTAssertNotEqual(Set((0..<50 as Range<UInt64>).map { Challenge.random(seed: $0).description }).count, 1)
    }

    func testVerdictLineFormat() throws {
        var script = Script()
        script.events = { t, frame in abs(t - 2.0) < 0.001 ? self.blink(at: t, frame: frame) : [] }
        let (outputs, _) = try run("blink", script)
        XCTAssertEqual(outputs.first?.jsonLine, #"{"type":"prompt","t":1,"frame":30,"step":"blink","index":0,"of":1,"timeout_s":5}"# + "\n")
        let line = try XCTUnwrap(outputs.last?.jsonLine)
        XCTAssertTrue(line.hasPrefix(#"{"type":"verdict","t":2,"frame":60,"pass":true,"reason":null,"face":1,"challenge":"blink","steps":[{"step":"blink","result":"done","prompt_t":1,"done_t":2}],"micro_motion":"#), line)
        XCTAssertNotNil(try JSONSerialization.jsonObject(with: Data(line.utf8)))
    }
}
