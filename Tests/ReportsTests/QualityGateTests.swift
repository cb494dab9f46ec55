import Config
import Events
import Foundation
import Landmarks
import Pipeline
import Recordings
import Reports
import XCTest

/// `facewatch eval Recordings/*` as a test: the quality targets on the bundled recordings
/// (made by Scripts/make_recordings.py and checked against dlib when generated).
final class QualityGateTests: XCTestCase {
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }

    private static var recordingsFolder: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings")
    }

    private func evaluate(_ name: String) throws -> Evaluation {
        let recording = try Recording(directory: Self.recordingsFolder.appendingPathComponent(name).path)
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        return try Evaluation(recording: recording, processor: processor)
    }

    private func all() throws -> [Evaluation] {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.recordingsFolder.path).sorted()
            .filter { FileManager.default.fileExists(atPath: Self.recordingsFolder.appendingPathComponent("\($0)/truth.json").path) }
        XCTAssertGreaterThanOrEqual(names.count, 8, "at least 8 recordings with truth")
        return try names.map(evaluate)
    }

    private func total(_ results: [Evaluation], _ type: String) -> DetectionScore {
        results.map { $0.scores[type]! }.reduce(DetectionScore(), +)
    }

    func testTheBundledRecordingsMeetTheTargets() throws {
        let results = try all()
        for result in results {
            let line = Evaluation.types.map { type -> String in
                let s = result.scores[type]!
                return "\(type) \(s.truePositives)/\(s.falsePositives)/\(s.falseNegatives)"
            }.joined(separator: ", ")
            print("eval \(URL(fileURLWithPath: result.recording).lastPathComponent): \(line)")
        }
        let blink = total(results, "blink"), smile = total(results, "smile"), mouth = total(results, "mouth_open")
        print("eval totals: blink F1 \(blink.f1) \(blink), smile F1 \(smile.f1), mouth_open F1 \(mouth.f1)")
        XCTAssertGreaterThan(blink.truePositives, 20, "the recordings hold many blinks")
        XCTAssertGreaterThanOrEqual(blink.f1, 0.97)
        XCTAssertGreaterThanOrEqual(smile.f1, 0.9)
        XCTAssertGreaterThanOrEqual(mouth.f1, 0.9)
    }

    func testNoBlinkOnTheStillPhoto() throws {
        let result = try evaluate("still-photo")
        XCTAssertEqual(result.scores["blink"]?.falsePositives, 0)
        XCTAssertEqual(result.scores["wink"]?.falsePositives, 0)
        XCTAssertEqual(result.scores["eyes_closed"]?.falsePositives, 0)
    }

    /// A printed photo (Grace Hopper, glasses) turned to ±50° by hand: dlib's points swing from
    /// frame to frame on the narrowed face, and none of the swings may pass for a blink.
    func testAPrintedPhotoTurnedAwayFiresNoBlink() throws {
        let result = try evaluate("photo-turned")
        XCTAssertEqual(result.scores["blink"]?.falsePositives, 0)
        XCTAssertEqual(result.scores["wink"]?.falsePositives, 0)
        XCTAssertEqual(result.scores["eyes_closed"]?.falsePositives, 0)
        XCTAssertEqual(result.total.falsePositives, 0)
    }

    func testWinksAndHalfBlinksAreNotBlinks() throws {
        let result = try evaluate("half-blinks-winks")
        XCTAssertEqual(result.scores["blink"]?.falsePositives, 0)
        XCTAssertEqual(result.scores["eyes_closed"]?.falsePositives, 0)
    }

    func testALongClosureIsNotABlink() throws {
        let result = try evaluate("long-closure")
        XCTAssertEqual(result.scores["eyes_closed"]?.truePositives, 1)
        XCTAssertEqual(result.scores["blink"]?.falsePositives, 0)
    }

    func testTheRealSetHasItsBlinksAndNothingOnTheLookAlikes() throws {
        // Recordings/real: real people, truth annotated by eye (Recordings/README.md). Measured
        // with the HOG detector and the yaw-corrected eye ratios (issue 10): blink 8 of 9, closures
        // 2 of 3, no wink, nothing over the squint and look-down negatives; matched blink durations
        // within 167 ms at p95. The one false blink there was (pexels-langer at 5.88 s, as her
        // eyes open after crying) went with the jitter check (`BlinkSettings.jitterFactor`). (The blink detector alone, on cascade boxes without the yaw correction,
        // measured F1 0.94 with no false blink and 125 ms: issue 14 is still open.)
        let folder = Self.recordingsFolder.appendingPathComponent("real")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertGreaterThanOrEqual(names.count, 4)
        let results = try names.map { try evaluate("real/\($0)") }
        let blink = total(results, "blink"), closed = total(results, "eyes_closed")
        XCTAssertGreaterThanOrEqual(blink.f1, 0.88, "\(blink)")
        XCTAssertEqual(blink.falsePositives, 0)
        XCTAssertGreaterThanOrEqual(closed.truePositives, 2)
        XCTAssertEqual(closed.falsePositives, 0)
        XCTAssertEqual(total(results, "wink").falsePositives, 0)
        XCTAssertGreaterThan(results.map(\.negatives).reduce(0, +), 4)
        XCTAssertEqual(results.flatMap { $0.negativeHits.values }.reduce(0, +), 0, "no event over a squint or look-down")
        XCTAssertLessThanOrEqual(blink.durationError?.p95 ?? 1, 0.17)
    }

    func testTheRealSetHasItsSmilesAndOpenMouths() throws {
        // Smiles and open mouths of the real set, annotated by eye on mouth-region sheets; lips
        // apart over the teeth (talking, a grin) are `unsure` for mouth_open. Measured: smile 3/0/0,
        // mouth_open 5/0/0, with 6 open-mouth events (grins, talking) and 1 smile (crying) on
        // unsure stretches.
        let names = ["clm-cap12", "clm-cap13", "feat-single-face", "pexels-langer"]
        let results = try names.map { try evaluate("real/\($0)") }
        let smile = total(results, "smile"), mouth = total(results, "mouth_open")
        XCTAssertEqual([smile.truePositives, smile.falsePositives, smile.falseNegatives], [3, 0, 0], "\(smile)")
        XCTAssertEqual(mouth.falseNegatives, 0, "\(mouth)")
        XCTAssertGreaterThanOrEqual(mouth.truePositives, 5, "\(mouth)")
        XCTAssertEqual(mouth.falsePositives, 0, "\(mouth)")
        XCTAssertGreaterThan(results.map { $0.unsureHits["mouth_open"] ?? 0 }.reduce(0, +), 0,
                             "the grins and talking are reported as open mouths, and set aside")
    }

    func testNoFaceNoEvents() throws {
        let result = try evaluate("no-face")
        XCTAssertEqual(result.total.falsePositives, 0)
    }

    /// Issue 10's recordings: two faces (one small, one with glasses), a tilted head, head turns
    /// to ±45° (blinks at ±40°, smiles and open mouths made while turned).
    func testTheFaceAndTurnRecordingsScorePerfectly() throws {
        for name in ["two-faces", "tilted-head", "head-turn-neutral", "head-turn-blinks", "head-turn-expressions",
                     "head-turn-mouth"] {
            let result = try evaluate(name)
            XCTAssertEqual(result.total.f1, 1, "\(name): \(result.scores)")
        }
    }

    /// The mouth opens while the head is turned +40° and again at −35°: both openings are
    /// reported, and the smile the astronaut holds throughout is not broken by them.
    func testAnOpenMouthIsFoundOnATurnedHead() throws {
        let result = try evaluate("head-turn-mouth")
        let mouth = try XCTUnwrap(result.scores["mouth_open"]), smile = try XCTUnwrap(result.scores["smile"])
        XCTAssertEqual([mouth.truePositives, mouth.falsePositives, mouth.falseNegatives], [2, 0, 0], "\(mouth)")
        XCTAssertEqual([smile.truePositives, smile.falsePositives, smile.falseNegatives], [1, 0, 0], "\(smile)")
    }

    func testTurningANeutralFaceFiresNothing() throws {
        let result = try evaluate("head-turn-neutral")
        XCTAssertEqual(result.total.falsePositives, 0)
    }

    /// Two faces in view: each keeps its own expression state, so the small astronaut's blinks and
    /// Grace Hopper's smile come with their own face ids.
    func testTwoFacesHaveTheirOwnExpressions() throws {
        let recording = try Recording(directory: Self.recordingsFolder.appendingPathComponent("two-faces").path)
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        let sink = EventList()
        var source = RecordingSource(recording: recording)
        _ = try Replay.run(&source, processor: processor, sink: sink)
        var boxes: [Int: [Int]] = [:], blinks: [Int: Int] = [:], smileStarts: [Int: [Double]] = [:]
        for event in sink.events {
            switch event.payload {
            case .faceFound(let face, let box): boxes[face] = [box.x, box.y, box.width, box.height]
            case .blink(let face, _, _): blinks[face, default: 0] += 1
            case .smile(let face, .start, _): smileStarts[face, default: []].append(event.t)
            default: break
            }
        }
        XCTAssertEqual(boxes.count, 2, "two faces, each found once: \(boxes)")
        let small = try XCTUnwrap(boxes.min { $0.value[2] < $1.value[2] }?.key)
        let large = try XCTUnwrap(boxes.max { $0.value[2] < $1.value[2] }?.key)
        XCTAssertNotEqual(small, large)
        XCTAssertEqual(blinks[small], 3, "the astronaut blinks three times")
        XCTAssertNil(blinks[large], "Grace Hopper never blinks")
        XCTAssertEqual(smileStarts[small]?.count, 1, "the astronaut smiles throughout")
        XCTAssertEqual(smileStarts[large]?.count, 1, "Grace Hopper smiles once")
        XCTAssertGreaterThan(smileStarts[large]?.first ?? 0, 1.0, "her smile starts when she smiles, not with the astronaut's")
    }
}

/// Keeps every event of a replay.
private final class EventList: EventSink {
    var events: [Event] = []
    func write(_ event: Event) throws { events.append(event) }
}
