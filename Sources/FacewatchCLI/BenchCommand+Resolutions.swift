import Config
import Events
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings

extension BenchCommand {
    /// The pipeline on one clip at one frame size.
    struct ResolutionFigures {
        var width: Int
        var height: Int
        /// Mean JPEG bytes per frame.
        var jpegBytes: Int
        /// Per-stage times, one processing thread (as `benchRecording`).
        var pipeline: PipelineFigures
        /// Frames per second of a replay as `facewatch replay` runs it (decoding on other threads).
        var replayFPS: Double
        /// Frames decoded only around the faces, of all processed.
        var partlyDecoded: Double
        /// The types of the events, in order, without `nose` and `frame` lines and the ends of smiles and open mouths.
        var events: [String]
    }

    /// The sizes the clip is measured at: a 640×480 webcam's, as recorded, and 1920×1080.
    static let benchSizes = [(640, 480), (1280, 720), (1920, 1080)]

    /// Runs the pipeline on `opened` made into each of `benchSizes` (scaled bilinearly to fit,
    /// centred on black where the aspect differs, and re-encoded at JPEG quality 70, the bundled
    /// recordings' quality; the recording's own size keeps its own frames).
    func benchResolutions(_ opened: Recording, _ configuration: Configuration, predictor: ShapePredictor) throws -> [ResolutionFigures] {
        var figures: [ResolutionFigures] = []
        for (width, height) in Self.benchSizes {
            let scaled = try Self.scaled(opened, width: width, height: height)
            defer { if scaled.directory != opened.directory { try? FileManager.default.removeItem(atPath: scaled.directory) } }
            let pipeline = try benchRecording(scaled, configuration, predictor: predictor)
            var best = 0.0, events: [String] = [], partly = 0.0
            for _ in 0..<max(rounds, 1) {
                let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
                let sink = EventListSink()
                var source = DecodeAheadSource(RecordingSource(recording: scaled), conversion: configuration.gray,
                                               decoders: DecodeAheadSource.decoders(width: width, height: height))
                let summary = try Replay.run(&source, processor: processor, sink: sink)
                best = max(best, Double(summary.frames) / max(summary.seconds, 1e-9))
                events = sink.events
            }
            do {  // the share decoded in part, in a replay that decodes on the processing thread (as a camera's frames are)
                let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
                var source = RecordingSource(recording: scaled)
                _ = try Replay.run(&source, processor: processor, sink: EventListSink())
                partly = Double(processor.partlyDecodedFrames) / Double(max(processor.processedFrames, 1))
            }
            let bytes = scaled.frames.reduce(0) { $0 + $1.length } / max(scaled.frames.count, 1)
            figures.append(ResolutionFigures(width: width, height: height, jpegBytes: bytes, pipeline: pipeline,
                                             replayFPS: best, partlyDecoded: partly, events: events))
        }
        return figures
    }

    /// `opened` with its frames scaled to `width` × `height` in a temporary folder (or `opened`
    /// itself when it has that size).
    private static func scaled(_ opened: Recording, width: Int, height: Int) throws -> Recording {
        if opened.info.width == width && opened.info.height == height { return opened }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-bench-\(width)x\(height)-\(UUID().uuidString)")
        let writer = try RecordingWriter(directory: folder.path, info: RecordingInfo(
            width: width, height: height, fps: opened.info.fps, source: "\(opened.directory) scaled to \(width)×\(height) by facewatch bench"))
        var decoder = JPEGDecoder()
        for (n, entry) in opened.frames.enumerated() {
            let frame = try decoder.decodeRGB(opened.jpeg(n))
            let scale = min(Double(width) / Double(frame.width), Double(height) / Double(frame.height))
            let fitted = frame.resized(width: Int((Double(frame.width) * scale).rounded()), height: Int((Double(frame.height) * scale).rounded()))
            try writer.append(jpeg: JPEGEncoder.encode(fitted.centred(inWidth: width, height: height), quality: 70), t: entry.t)
        }
        try writer.finish()
        return try Recording(directory: folder.path)
    }

    /// The bundled 1280×720 recording, when it is there.
    static func bundledLargeRecording() -> String? {
        searchRoots.map { "\($0)/Recordings/hd/pexels-langer-720p" }
            .first { FileManager.default.fileExists(atPath: "\($0)/recording.json") }
    }

    /// The table of `benchResolutions`.
    static func printResolutions(_ figures: [ResolutionFigures], recording: String) {
        print("\nframe sizes: \(recording) scaled to each size (to 640×360 on a black 640×480; JPEG quality 70); stages on one thread as above, "
              + "\"replay\" as `facewatch replay` runs it (decoding on other threads), best of the rounds; "
              + "\"in part\": frames decoded only around the face when decoding on the processing thread")
        print("size        KB/frame  decode  detect   track  landmarks  total (ms)  one thread  replay FPS  in part  events")
        for f in figures {
            let stage = { (name: String) in f.pipeline.stages.first { $0.0 == name }?.1.mean ?? 0 }
            print("\(f.width)×\(f.height)".padding(toLength: 11, withPad: " ", startingAt: 0)
                  + String(format: "%9.1f  %6.3f  %6.3f  %6.3f  %9.3f  %10.3f  %10.0f  %10.0f  %6.0f%%  ",
                           Double(f.jpegBytes) / 1024, stage("decode"), stage("detect"), stage("track"),
                           stage("landmarks"), stage("total"), f.pipeline.fps, f.replayFPS, 100 * f.partlyDecoded)
                  + Self.count(f.events))
        }
    }

    /// "2 blink, 1 smile": the events by type, in order of first appearance (smiles and open
    /// mouths counted once, at their start).
    static func count(_ events: [String]) -> String {
        var order: [String] = [], counts: [String: Int] = [:]
        for type in events {
            guard !["face_found", "face_lost"].contains(type) else { continue }
            if counts[type] == nil { order.append(type) }
            counts[type, default: 0] += 1
        }
        return order.isEmpty ? "none" : order.map { "\(counts[$0]!) \($0)" }.joined(separator: ", ")
    }

    /// The JSON object of `benchResolutions`.
    static func resolutionsJSON(_ figures: [ResolutionFigures]) -> String {
        "[" + figures.map { f in
            let stages = "{" + f.pipeline.stages.map { "\"\($0.0)\": \($0.1.json)" }.joined(separator: ", ") + "}"
            return "{\"width\": \(f.width), \"height\": \(f.height), \"jpeg_bytes\": \(f.jpegBytes), "
                + "\"fps\": \(String(format: "%.1f", f.pipeline.fps)), \"replay_fps\": \(String(format: "%.1f", f.replayFPS)), "
                + "\"partly_decoded\": \(String(format: "%.3f", f.partlyDecoded)), \"events\": \(JSONString.literal(count(f.events))), "
                + "\"stages_ms\": \(stages)}"
        }.joined(separator: ", ") + "]"
    }
}

/// Keeps the types of a replay's events, leaving out `nose` and `frame` lines and the
/// ends of smiles and open mouths.
private final class EventListSink: EventSink {
    var events: [String] = []

    func write(_ event: Event) throws {
        switch event.payload {
        case .nose, .frame: return
        case .smile(_, let state, _), .mouthOpen(_, let state, _):
            if state == .start { events.append(event.type.rawValue) }
        default: events.append(event.type.rawValue)
        }
    }
}
