import Config
import Foundation
import Landmarks
import Liveness
import LivenessEvaluation
import Pipeline
import Recordings
import XCTest

/// The check against the bundled recordings replayed as attacks (they do not see the cues):
/// unprompted real video, printed photos held, turned, bent or with the eyes cut out, a phone
/// screen, a still photo, an empty room. Each is looped to last 30 s and checked under every
/// challenge kind with many seeds, as `facewatch check-eval` does.
final class CheckOnRecordingsTests: XCTestCase {
    static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")
    static let challenges = ["blink", "blink:2", "smile", "open_mouth", "turn_left", "turn_right", "nod"]

    private func frames(_ name: String) throws -> [CheckRun.ProcessedFrame] {
        let recording = try Recording(directory: Self.recordings.appendingPathComponent(name).path)
        var source = RecordingSource(recording: recording, loops: CheckRun.loops(recording, toLast: 30))
        return try CheckRun.process(&source, with: FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get()))
    }

    /// The checks that passed on `name` over every challenge kind (and random ones) and `seeds`.
    private func accepted(_ name: String, seeds: ClosedRange<UInt64>) throws -> [String] {
        let frames = try frames(name)
        var passed: [String] = []
        for seed in seeds {
            for challenge in try Self.challenges.map({ try Challenge(parsing: $0) }) + [Challenge.random(seed: seed)] {
                if CheckRun.verdict(challenge, seed: seed, on: frames).passed { passed.append("\(name) \(challenge) seed \(seed)") }
            }
        }
        return passed
    }

    func testUnpromptedVideoOfRealPeopleIsRefused() throws {
        // 5 clips × 20 seeds × 8 challenges: at most 1 % may pass (measured: 5, docs/liveness.md).
        var passed: [String] = []
        for name in ["real/clm-cap12", "real/clm-cap13", "real/feat-single-face", "real/pexels-langer", "attacks/feat-single-face-screen"] {
            passed += try accepted(name, seeds: 1...20)
        }
        XCTAssertLessThanOrEqual(passed.count, 8, "\(passed)")
    }

    func testReplayedSyntheticBlinksAreRefused() throws {
        for name in ["blinks-slow-move", "double-blinks", "hopper-blinks", "head-turn-blinks", "head-turn-neutral"] {
            XCTAssertEqual(try accepted(name, seeds: 1...10), [], name)
        }
    }

    func testPrintedPhotosAreRefused() throws {
        for name in ["still-photo", "photo-turned", "attacks/pexels-langer-photo-turned", "attacks/pexels-langer-photo-bent",
                     "attacks/clm-cap13-photo-eyecut", "attacks/hopper-blinks-photo-held"] {
            XCTAssertEqual(try accepted(name, seeds: 1...10), [], name)
        }
    }

    func testAPhotoTurnedByHandDoesNotNod() throws {
        // `facewatch check --replay Recordings/photo-turned --challenge nod` once passed. Its
        // points swing as dlib refits the narrowed photo, but they stay on a plane.
        let frames = try frames("photo-turned")
        for seed in 1...20 as ClosedRange<UInt64> {
            let verdict = CheckRun.verdict(try Challenge(parsing: "nod"), seed: seed, on: frames)
            XCTAssertFalse(verdict.passed, "seed \(seed)")
        }
    }

    func testNoFaceFails() throws {
        let verdict = CheckRun.verdict(try Challenge(parsing: "blink"), seed: 1, on: try frames("no-face"))
        XCTAssertEqual(verdict.reason, .noFace)
    }
}
