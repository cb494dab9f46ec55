import Events
import Expressions
import FaceCore
import Landmarks
import Liveness
import Pipeline
import XCTest

/// The check with an expected identity, driven by constructed readings: the caller reads the
/// identity whenever `needsIdentity` says so; `distance(t)` is what it would read at time t.
final class IdentityCheckTests: XCTestCase {
    private func face(ear: Double = 0.3) -> FaceObservation {
        var points: [SIMD2<Float>] = []
        for i in 0..<68 {
            let angle = Float(i) / 68 * 2 * .pi
            points.append(SIMD2(200 + 60 * cos(angle), 200 + 70 * sin(angle)))
        }
        let measures = FaceMeasures(earLeft: ear, earRight: ear, mar: 0.05, smile: 0, nose: SIMD2(0.5, 0.5),
                                    pose: HeadPose(yaw: 0, pitch: 0, roll: 0))
        return FaceObservation(id: 1, box: FaceBox(x: 120, y: 120, width: 150, height: 150), shape: FaceShape(points: points),
                               measures: measures, brightness: 120,
                               thresholds: FrameThresholds(earCloseLeft: 0.19, earCloseRight: 0.19, smile: 0.35, mar: 0.33))
    }

    /// Blinks 0.4 s after every cue; the identity reads `distance(t, answered)`, `answered` the
    /// number of cues answered so far.
    private func run(_ challenge: String, distance: @escaping (Double, Int) -> Double?) throws
        -> (outputs: [CheckOutput], readings: [IdentityReading], verdict: CheckVerdict) {
        let check = LivenessCheck(challenge: try Challenge(parsing: challenge), identity: "alice", seed: 1)
        var outputs: [CheckOutput] = []
        var readings: [IdentityReading] = []
        var cues: [Double] = []
        var answered = 0
        var frame = 0
        while Double(frame) / 30 <= 40 && check.verdict == nil {
            let t = Double(frame) / 30
            var events: [Event] = []
            for cue in cues where abs(t - cue - 0.4 - 5.0 / 30) < 0.5 / 30 {
                events.append(Event(t: t, frame: frame, .blink(face: 1, start: t - 5.0 / 30, duration: 5.0 / 30)))
                answered += 1
            }
            var reading: IdentityReading?
            if check.needsIdentity(t: t), let d = distance(t, answered) {
                reading = IdentityReading(t: t, frame: frame, face: 1, name: "alice", distance: d, threshold: 0.6)
                readings.append(reading!)
            }
            let shut = cues.contains { t >= $0 + 0.4 - 1e-9 && t < $0 + 0.4 + 5.0 / 30 - 1e-9 }
            check.observe(frame: frame, t: t, events: events, faces: [face(ear: shut ? 0.08 : 0.3)], facesInView: 1, identity: reading) {
                outputs.append($0)
                if case .cue(_, _, _, let t, _, _) = $0 { cues.append(t) }
            }
            frame += 1
        }
        check.finish { outputs.append($0) }
        return (outputs, readings, try XCTUnwrap(check.verdict))
    }

    func testTheEnrolledPersonPassesWithReadingsAtStartEveryStepAndEnd() throws {
        let (outputs, readings, verdict) = try run("blink,blink") { _, _ in 0.35 }
        XCTAssertTrue(verdict.passed, "\(verdict)")
        XCTAssertEqual(verdict.identity, "alice")
        XCTAssertEqual(verdict.identityDistance ?? 0, 0.35, accuracy: 1e-12)
        let prompts = outputs.compactMap { if case .prompt(_, _, _, let t, _, _) = $0 { return t } else { return nil } }
        XCTAssertEqual(prompts.count, 2)
        XCTAssertTrue(readings.contains { $0.t <= prompts[0] }, "a reading before the first prompt")
        XCTAssertTrue(readings.contains { $0.t >= prompts[1] && $0.t <= verdict.steps[1].doneT! }, "a reading in the last step")
        XCTAssertTrue(readings.contains { $0.t > verdict.steps[1].doneT! }, "a reading after the last step")
        XCTAssertGreaterThan(readings.count, 10, "read every 0.25 s")
        XCTAssertTrue(readings.allSatisfy { outputs.contains(.identity($0)) }, "every reading is an identity line")
    }

    func testAnotherPersonFailsBeforeAnyPrompt() throws {
        let (outputs, _, verdict) = try run("blink") { _, _ in 0.85 }
        XCTAssertFalse(verdict.passed)
        XCTAssertEqual(verdict.reason, .identityMismatch)
        XCTAssertFalse(outputs.contains { if case .prompt(_, _, _, _, _, 1) = $0 { return true } else { return false } })
        XCTAssertLessThan(verdict.t, 0.1, "the first reading fails it")
    }

    func testASwapDuringTheCheckFails() throws {
        // Another person from the second step's second answer on.
        let (_, _, verdict) = try run("blink,blink") { _, answered in answered < 5 ? 0.35 : 0.8 }
        XCTAssertFalse(verdict.passed)
        XCTAssertEqual(verdict.reason, .identityChanged)
        XCTAssertNotNil(verdict.steps[0].doneT, "the first step was done before the swap")
        XCTAssertNil(verdict.steps[1].doneT)
    }

    func testASwapAfterTheLastActionFailsAtTheEnd() throws {
        let (_, _, verdict) = try run("blink,blink") { _, answered in answered < 8 ? 0.35 : 0.8 }
        XCTAssertFalse(verdict.passed)
        XCTAssertEqual(verdict.reason, .identityChanged)
    }

    func testWithoutReadingsTheCheckCannotStart() throws {
        let (_, _, verdict) = try run("blink") { _, _ in nil }
        XCTAssertFalse(verdict.passed)
        XCTAssertEqual(verdict.reason, .identityMismatch)
    }

    func testIdentityLineFormat() {
        let line = CheckOutput.identity(IdentityReading(t: 1.2, frame: 36, face: 1, name: "alice", distance: 0.31234, threshold: 0.6)).jsonLine
        XCTAssertEqual(line, #"{"type":"identity","t":1.2,"frame":36,"face":1,"name":"alice","distance":0.3123,"threshold":0.6,"match":true}"# + "\n")
    }
}
