import Config
import Events
import Foundation
import Landmarks
import Liveness
import LivenessEvaluation
import Pipeline
import Recordings
import WebServer
import XCTest

/// Checks over HTTP: one at a time per camera (409 for another), fed by the pipeline's frames,
/// with the same prompts and verdict as `facewatch check`.
final class CheckRegistryTests: XCTestCase {
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }

    func testASecondCheckWhileOneRunsIsAConflict() throws {
        let registry = CheckRegistry()
        let first = try registry.start(try Challenge(parsing: "blink"), settings: CheckSettings(), id: "a")
        XCTAssertEqual(first.state, "running")
        XCTAssertThrowsError(try registry.start(try Challenge(parsing: "smile"), settings: CheckSettings(), id: "b")) { error in
            XCTAssertEqual((error as? CheckRegistry.Conflict)?.runningID, "a")
        }
        XCTAssertNil(registry.snapshot("b"))
        // Once the first ends (here: the stream ended), a new one may start.
        registry.finish()
        XCTAssertEqual(registry.snapshot("a")?.state, "failed")
        XCTAssertTrue(registry.snapshot("a")?.json.contains(#""reason":"no_face""#) == true)
        XCTAssertNoThrow(try registry.start(try Challenge(parsing: "smile"), settings: CheckSettings(), id: "b"))
    }

    func testAPersonAnsweringTheCuesPassesAndAReplayFails() throws {
        var verdicts: [Bool] = []
        let registry = CheckRegistry { verdicts.append($0) }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings/hopper-blinks")
        let recording = try Recording(directory: folder.path)
        // The person reads the prompts and cues from the check's state, as the page does.
        var person = try RespondingPerson(recording: recording, seed: 3)
        var processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        _ = try registry.start(try Challenge(parsing: "blink,blink"), settings: CheckSettings(), seed: 3, id: "c")
        var events: [Event] = []
        var heard = 0
        while registry.snapshot("c")?.passed == nil, let frame = try person.nextFrame() {
            events.removeAll()
            processor.process(frame) { events.append($0) }
            registry.observe(frame: frame.index, t: frame.t, events: events, faces: processor.observations,
                             facesInView: processor.tracker.facesInView)
            let lines = registry.snapshot("c")?.outputs ?? []
            for line in lines[heard...] {
                guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                      let type = object["type"] as? String, let t = object["t"] as? Double, let frame = object["frame"] as? Int,
                      let step = (object["step"] as? String).flatMap(ChallengeStep.init(parsing:)) else { continue }
                if type == "prompt" {
                    person.hear(.prompt(step: step, index: object["index"] as? Int ?? 0, of: object["of"] as? Int ?? 0, t: t,
                                        frame: frame, timeout: 5))
                } else if type == "cue", let window = object["window_s"] as? [Double] {
                    person.hear(.cue(step: step, trial: object["trial"] as? Int ?? 0, of: object["of"] as? Int ?? 0, t: t,
                                     frame: frame, window: window[0]...window[1]))
                }
            }
            heard = lines.count
        }
        let snapshot = try XCTUnwrap(registry.snapshot("c"))
        XCTAssertEqual(snapshot.state, "passed", snapshot.json)
        let types = snapshot.outputs.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return object["type"] as? String
        }
        XCTAssertEqual(types.first, "prompt")
        XCTAssertEqual(types.filter { $0 == "prompt" }.count, 2)
        XCTAssertGreaterThanOrEqual(types.filter { $0 == "cue" }.count, 8)
        XCTAssertEqual(types.last, "verdict")
        XCTAssertEqual(verdicts, [true])
        let json = try JSONSerialization.jsonObject(with: Data(snapshot.json.utf8)) as? [String: Any]
        XCTAssertEqual(json?["state"] as? String, "passed")
        XCTAssertEqual(json?["challenge"] as? String, "blink,blink")

        // The same recording replayed as it is blinks at its own pace: the check fails.
        processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        var replay = RecordingSource(recording: recording, loops: 8)
        _ = try registry.start(try Challenge(parsing: "blink,blink"), settings: CheckSettings(), seed: 3, id: "d")
        while registry.snapshot("d")?.passed == nil, let frame = try replay.nextFrame() {
            events.removeAll()
            processor.process(frame) { events.append($0) }
            registry.observe(frame: frame.index, t: frame.t, events: events, faces: processor.observations,
                             facesInView: processor.tracker.facesInView)
        }
        registry.finish()
        XCTAssertEqual(registry.snapshot("d")?.state, "failed")
        XCTAssertEqual(verdicts, [true, false])
    }

    func testCheckRequestsReadLikeTheCommandsOptions() throws {
        let request = try CheckRequest(json: Data(#"{"challenge":"blink:2,smile","step_timeout_s":3}"#.utf8))
        XCTAssertEqual(request.challenge.description, "blink:2,smile")
        XCTAssertEqual(request.settings.stepTimeout, 3)
        let seeded = try CheckRequest(json: Data(#"{"seed":7}"#.utf8))
        XCTAssertEqual(seeded.challenge, Challenge.random(seed: 7))
        XCTAssertNoThrow(try CheckRequest(json: Data()))
        for bad in [#"{"challenge":"jump"}"#, #"{"step_timeout_s":-1}"#, #"{"seed":-3}"#, #"{"colour":1}"#, "[1]", "{"] {
            XCTAssertThrowsError(try CheckRequest(json: Data(bad.utf8)), bad)
        }
    }
}
