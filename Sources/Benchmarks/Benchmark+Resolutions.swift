import Config
import Events
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings

extension Benchmark {
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
}
