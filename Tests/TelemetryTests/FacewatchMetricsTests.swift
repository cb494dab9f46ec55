import Config
import Events
import Foundation
import Landmarks
import Pipeline
import Recordings
import Telemetry
import XCTest

/// The metrics of a replay through the live pipeline equal the replay's own counts: its summary,
/// the processor's bad frames and the events it wrote.
final class FacewatchMetricsTests: XCTestCase {
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }

    /// Collects events by type.
    private final class Counts: EventSink {
        var byType: [EventType: Int] = [:]
        func write(_ event: Event) throws { byType[event.type, default: 0] += 1 }
    }

    /// `name{labels} value` lines of the exposition, by `name{labels}`.
    private func samples(_ text: String) -> [String: Double] {
        var values: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            values[String(line[..<space])] = value
        }
        return values
    }

    func testTheMetricsOfAReplayEqualItsOwnCounts() throws {
        let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings/blinks-fast-move")
        let original = try Recording(directory: source.path)
        // 90 frames of the clip, one of them damaged (it does not decode).
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-metrics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let writer = try RecordingWriter(directory: folder.path, info: original.info)
        for n in 0..<90 {
            try writer.append(jpeg: n == 40 ? Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3, 4]) : original.jpeg(n), t: original.frames[n].t)
        }
        try writer.finish()

        let metrics = FacewatchMetrics()
        let counts = Counts()
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        let pipeline = LivePipeline(processor: processor, sink: FanOut([counts, metrics]), observer: metrics)
        // Twice real time: on a busy machine processing may fall behind and drop frames in the handoff.
        var frames = PacedSource(RecordingSource(recording: try Recording(directory: folder.path)), speed: 2)
        let summary = try pipeline.run(&frames)

        let values = samples(metrics.exposition())
        XCTAssertEqual(values["facewatch_frames_captured_total"], Double(summary.captured))
        XCTAssertEqual(summary.captured, 90)
        XCTAssertEqual(values[#"facewatch_frames_dropped_total{reason="handoff"}"#], Double(summary.dropped))
        XCTAssertEqual(values[#"facewatch_frames_dropped_total{reason="decode"}"#], Double(processor.badFrames))
        XCTAssertEqual(values["facewatch_frames_decoded_total"], Double(summary.processed - processor.badFrames))
        XCTAssertEqual(values["facewatch_processing_seconds_count"], values["facewatch_frames_decoded_total"])
        XCTAssertEqual(values["facewatch_capture_to_event_seconds_count"], values["facewatch_frames_decoded_total"])
        XCTAssertGreaterThan(values["facewatch_processing_seconds_sum"] ?? 0, 0)
        for type in EventType.allCases {
            XCTAssertEqual(values[#"facewatch_events_total{type="\#(type.rawValue)"}"#], Double(counts.byType[type] ?? 0), type.rawValue)
        }
        XCTAssertGreaterThan(counts.byType[.blink] ?? 0, 0, "the clip's blinks were seen")
        XCTAssertEqual(values["facewatch_faces_tracked"], 1)
        XCTAssertEqual(values["facewatch_camera_reconnects_total"], 0)
        XCTAssertEqual(values[#"facewatch_checks_total{verdict="pass"}"#], 0)
    }

    func testChecksAndReconnectsAreCounted() throws {
        let metrics = FacewatchMetrics()
        metrics.checkConcluded(passed: true)
        metrics.checkConcluded(passed: false)
        metrics.checkConcluded(passed: false)
        try metrics.write(Event(t: 1, frame: 30, .error(message: "/dev/video0 is back", code: "camera_reconnected")))
        try metrics.write(Event(t: 1, frame: 30, .error(message: "gone", code: "camera_disconnected")))
        let values = samples(metrics.exposition())
        XCTAssertEqual(values[#"facewatch_checks_total{verdict="pass"}"#], 1)
        XCTAssertEqual(values[#"facewatch_checks_total{verdict="fail"}"#], 2)
        XCTAssertEqual(values["facewatch_camera_reconnects_total"], 1)
        XCTAssertEqual(values[#"facewatch_events_total{type="error"}"#], 2)
    }
}

/// Writes to every sink.
private final class FanOut: EventSink {
    let sinks: [EventSink]
    init(_ sinks: [EventSink]) { self.sinks = sinks }
    func write(_ event: Event) throws { for sink in sinks { try sink.write(event) } }
}
