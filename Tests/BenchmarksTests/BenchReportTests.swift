@testable import Benchmarks
import Foundation
import Pipeline
import XCTest

/// `facewatch bench --json`: one JSON object that a JSON parser reads, whatever the paths.
final class BenchReportTests: XCTestCase {
    private func report(recording: String, frameSizes: [ResolutionFigures]? = nil) -> BenchReport {
        let timing = TimingSummary([1, 2, 3])
        let pipeline = PipelineFigures(frames: 90, fps: 250, detectorCallsPerFrame: 0.05,
                                       stages: [("decode", timing), ("total", timing)])
        return BenchReport(recordings: [recording, "other"], rounds: 3, iterations: 2000, pipeline: pipeline,
                           micro: [("landmark fit, varied", timing)], variedFaces: 120,
                           emptyScene: EmptySceneBench(coreShare: 0.02, looksPerSecond: 4, worstDelay: 0.3, meanDelay: 0.2, trials: 12),
                           largeRecording: nil, frameSizes: frameSizes, descriptorMeasured: false,
                           modelStructure: "15 cascades", modelLoadSeconds: 0.5, cachedModelLoadSeconds: nil,
                           modelMB: 95.25, residentMB: 180)
    }

    private func parse(_ json: String) throws -> [String: Any] {
        XCTAssertFalse(json.contains("\n"), "one line")
        return try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
    }

    func testTheRecordingPathIsEscaped() throws {
        let path = "/tmp/a \"quoted\" folder\\with\ta tab\nand a line"
        let object = try parse(report(recording: path).json)
        XCTAssertEqual(object["recording"] as? String, path)
        XCTAssertEqual(object["frames"] as? Int, 90)
        XCTAssertEqual(object["rounds"] as? Int, 3)
    }

    func testMissingFiguresAreNull() throws {
        let object = try parse(report(recording: "Recordings/blinks-slow-move").json)
        XCTAssertTrue(object["model_load_cached_s"] is NSNull)
        XCTAssertTrue(object["frame_sizes"] is NSNull)
        let stages = try XCTUnwrap(object["stages_ms"] as? [String: [String: Double]])
        XCTAssertEqual(Set(stages.keys), ["decode", "total"])
        XCTAssertEqual(try XCTUnwrap(stages["total"]?["mean"]), 2, accuracy: 1e-9)
        XCTAssertNotNil((object["micro_ms"] as? [String: Any])?["landmark fit, varied"])
        XCTAssertEqual(try XCTUnwrap((object["empty_scene"] as? [String: Double])?["core_percent"]), 2, accuracy: 1e-9)
    }

    func testFrameSizesCarryTheirEventCounts() throws {
        let figures = ResolutionFigures(width: 1920, height: 1080, jpegBytes: 200_000,
                                        pipeline: PipelineFigures(frames: 10, fps: 60, stages: [("total", TimingSummary([4]))]),
                                        replayFPS: 90, partlyDecoded: 0.8,
                                        events: ["face_found", "blink", "smile", "blink", "face_lost"])
        let object = try parse(report(recording: "r", frameSizes: [figures]).json)
        let sizes = try XCTUnwrap(object["frame_sizes"] as? [[String: Any]])
        XCTAssertEqual(sizes.count, 1)
        XCTAssertEqual(sizes[0]["width"] as? Int, 1920)
        XCTAssertEqual(sizes[0]["events"] as? String, "2 blink, 1 smile")
    }

    func testEventCountsLeaveOutFacesFoundAndLost() {
        var figures = ResolutionFigures(width: 640, height: 480, jpegBytes: 0, pipeline: PipelineFigures(),
                                        replayFPS: 0, partlyDecoded: 0, events: ["face_found", "face_lost"])
        XCTAssertEqual(figures.eventCounts, "none")
        figures.events = ["mouth_open", "wink", "mouth_open"]
        XCTAssertEqual(figures.eventCounts, "2 mouth_open, 1 wink")
    }

    func testAPipelineStageMeanByName() {
        let figures = PipelineFigures(stages: [("detect", TimingSummary([1, 3])), ("total", TimingSummary([5]))])
        XCTAssertEqual(figures.mean("detect"), 2)
        XCTAssertEqual(figures.mean("landmarks"), 0, "a stage not measured")
    }
}
