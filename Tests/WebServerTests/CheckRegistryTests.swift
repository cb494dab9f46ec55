import Config
import Events
import Foundation
import Landmarks
import Liveness
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

    func testACheckOnARecordingPromptsInOrderAndPasses() throws {
        var verdicts: [Bool] = []
        let registry = CheckRegistry { verdicts.append($0) }
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings/double-blinks")
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        var source = RecordingSource(recording: try Recording(directory: folder.path))
        _ = try registry.start(try Challenge(parsing: "blink,blink"), settings: CheckSettings(), id: "c")
        var events: [Event] = []
        while registry.snapshot("c")?.passed == nil, let frame = try source.nextFrame() {
            events.removeAll()
            processor.process(frame) { events.append($0) }
            registry.observe(frame: frame.index, t: frame.t, events: events, faces: processor.observations,
                             facesInView: processor.tracker.facesInView)
        }
        let snapshot = try XCTUnwrap(registry.snapshot("c"))
        XCTAssertEqual(snapshot.state, "passed", snapshot.json)
        let types = snapshot.outputs.compactMap { line -> String? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return "\(object["type"]!):\(object["index"] ?? object["pass"]!)"
        }
        XCTAssertEqual(types, ["prompt:0", "prompt:1", "verdict:1"])
        XCTAssertEqual(verdicts, [true])
        let json = try JSONSerialization.jsonObject(with: Data(snapshot.json.utf8)) as? [String: Any]
        XCTAssertEqual(json?["state"] as? String, "passed")
        XCTAssertEqual(json?["challenge"] as? String, "blink,blink")
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
