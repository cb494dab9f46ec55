import ArgumentParser
import Config
import Detection
import Events
import FaceDescriptor
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings

/// `facewatch bench [RECORDING]`: a benchmark of the whole pipeline and its hot paths, one
/// processing thread, after a warm-up.
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark the pipeline on a recording: per-stage times, FPS, detector calls, memory (build with -c release).",
        discussion: """
            Replays RECORDING (default: the bundled Recordings/blinks-slow-move) once to warm up, then --rounds \
            times with every frame processed, timing each stage of each frame: decode, detect (full-frame \
            detection), track (window checks), landmarks (fits of tracked faces), expressions (measures, state \
            machines) and output (JSON encoding). Then micro-benchmarks of decode, one landmark fit and the \
            tracked-frame path on a still image, and the model's load time and memory. With the face descriptor \
            model installed (Scripts/setup-models), also dlib's face chip and descriptor network on the 16 faces of \
            Tests/Fixtures/identity in turn (compare with Scripts/bench_dlib_descriptor.py; pin both to one core \
            with `taskset -c 0`).
            """
    )

    @Argument(help: "A recording folder.")
    var recording: String = "Recordings/blinks-slow-move"

    @OptionGroup var options: ConfigOptions

    @Option(help: "Timed passes over the recording after the warm-up pass.")
    var rounds = 3

    @Option(help: "A JPEG with one face for the micro-benchmarks.")
    var image: String = "Tests/Fixtures/bench/face-640x480.jpg"

    @Option(help: "Timed iterations per micro-benchmark (after a warm-up of a tenth as many).")
    var iterations = 2000

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    mutating func run() throws {
        let configuration = try options.load()
        let rssBefore = ResidentMemory.current()
        let loadStart = Clock.now()
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel)
        let loadSeconds = Clock.now() - loadStart
        let modelMB = Double(ResidentMemory.current() - rssBefore) / 1_048_576

        let pipeline = try benchRecording(configuration, predictor: predictor)
        var micro = try benchMicro(configuration, predictor: predictor)
        let identity = try benchDescriptor()
        micro += identity ?? []
        let rss = Double(ResidentMemory.current()) / 1_048_576

        if json {
            func object(_ stages: [(String, TimingSummary)]) -> String {
                "{" + stages.map { "\"\($0.0)\": \($0.1.json)" }.joined(separator: ", ") + "}"
            }
            print("{\"recording\": \"\(recording)\", \"frames\": \(pipeline.frames), \"rounds\": \(rounds), "
                + "\"fps\": \(String(format: "%.1f", pipeline.fps)), "
                + "\"detector_calls_per_frame\": \(String(format: "%.4f", pipeline.detectorCallsPerFrame)), "
                + "\"stages_ms\": \(object(pipeline.stages)), \"micro_ms\": \(object(micro)), "
                + "\"model_load_s\": \(String(format: "%.3f", loadSeconds)), \"model_mb\": \(String(format: "%.1f", modelMB)), "
                + "\"resident_mb\": \(String(format: "%.1f", rss))}")
            return
        }
        print("recording \(recording): \(pipeline.frames) frames × \(rounds) rounds after a warm-up, one processing thread")
        print("stage".padding(toLength: 24, withPad: " ", startingAt: 0) + TimingSummary.header)
        for (name, summary) in pipeline.stages {
            print(name.padding(toLength: 24, withPad: " ", startingAt: 0) + summary.row)
        }
        print(String(format: "end to end: %.0f frames per second; full-frame detector on %.4f of frames (1 in %.0f)",
                     pipeline.fps, pipeline.detectorCallsPerFrame, 1 / max(pipeline.detectorCallsPerFrame, 1e-9)))
        print("\nmicro-benchmarks on \(image), \(iterations) iterations")
        for (name, summary) in micro {
            print(name.padding(toLength: 24, withPad: " ", startingAt: 0) + summary.row)
        }
        if identity == nil { print("face descriptor: model not installed (Scripts/setup-models); skipped") }
        print(String(format: "\nmodel: %@; load %.3f s, %.1f MB resident; process resident %.1f MB",
                     predictor.structure.description, loadSeconds, modelMB, rss))
    }

    private struct PipelineFigures {
        var frames = 0
        var fps = 0.0
        var detectorCallsPerFrame = 0.0
        var stages: [(String, TimingSummary)] = []
    }

    /// Replays the recording `rounds + 1` times (the first untimed) and times every frame's stages.
    private func benchRecording(_ configuration: Configuration, predictor: ShapePredictor) throws -> PipelineFigures {
        let opened = try Recording(directory: recording)
        var samples: [String: [Double]] = [:]
        var wall = 0.0, frames = 0, detections = 0
        var progress = ProgressLine(total: opened.frames.count * (rounds + 1), label: "bench")
        for round in 0...max(rounds, 1) {
            let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
            let sink = TimedNullSink()
            var source = RecordingSource(recording: opened)
            let started = Clock.now()
            while let frame = try? source.nextFrame() {
                sink.seconds = 0
                processor.process(frame) { try? sink.write($0) }
                guard round > 0 else { continue }
                let t = processor.timings
                samples["decode", default: []].append(t.decode * 1000)
                samples["detect", default: []].append(t.detect * 1000)
                samples["track", default: []].append(t.track * 1000)
                samples["landmarks", default: []].append(t.landmarks * 1000)
                samples["expressions", default: []].append(max(0, t.expressions - sink.seconds) * 1000)
                samples["output", default: []].append(sink.seconds * 1000)
                samples["total", default: []].append((t.total) * 1000)
                progress.update(opened.frames.count * round + processor.processedFrames)
            }
            if round > 0 {
                wall += Clock.now() - started
                frames += processor.processedFrames
                detections += processor.tracker.detectorRuns
            }
        }
        progress.finish()
        let order = ["decode", "detect", "track", "landmarks", "expressions", "output", "total"]
        return PipelineFigures(frames: opened.frames.count, fps: Double(frames) / max(wall, 1e-9),
                               detectorCallsPerFrame: Double(detections) / Double(max(frames, 1)),
                               stages: order.map { ($0, TimingSummary(samples[$0] ?? [])) })
    }

    /// Decode, one landmark fit, one full-frame detection and one tracked frame on a still image.
    private func benchMicro(_ configuration: Configuration, predictor: ShapePredictor) throws -> [(String, TimingSummary)] {
        let jpeg = try readFile(image)
        var decoder = JPEGDecoder()
        var gray = GrayImage(width: 0, height: 0)
        var results: [(String, TimingSummary)] = []
        for conversion in GrayConversion.allCases {
            results.append(("decode \(conversion.rawValue)", try measure(iterations) {
                try decoder.decode(jpeg, into: &gray, conversion: conversion)
            }))
        }
        try decoder.decode(jpeg, into: &gray, conversion: configuration.gray)
        let classifier = try CascadeClassifier(contentsOf: configuration.faceCascade)
        var detector = try CascadeDetector(classifier: classifier, settings: configuration.detector)
        var faces: [FaceBox] = []
        results.append(("full-frame detection", try measure(max(20, iterations / 10)) {
            detector.detect(gray, into: &faces)
        }))
        let tracker = try FaceTracker(detector: detector, predictor: predictor, settings: configuration.tracking)
        tracker.update(gray, t: 0)
        guard let face = tracker.faces.first, tracker.faces.count == 1 else {
            throw CommandError("\(image): the detector does not find exactly one face")
        }
        var shape = FaceShape(points: [])
        results.append(("landmark fit", try measure(iterations) {
            predictor.fit(gray, box: face.box, into: &shape)
        }))
        // A tracked frame: box from the last landmarks, fit, and every few frames the window check.
        // The clock stands still, so the periodic full-frame detection never falls due.
        results.append(("tracked frame", try measure(iterations) {
            tracker.update(gray, t: 0)
        }))
        guard tracker.faces.count == 1, tracker.detectorRuns == 1 else {
            throw CommandError("tracking lost the face or re-ran the detector during the benchmark")
        }
        return results
    }

    /// dlib's face chip and the descriptor network, one face after another from the identity
    /// fixtures (varied sizes, one through dlib's pyramid); nil when the model is not installed.
    private func benchDescriptor() throws -> [(String, TimingSummary)]? {
        let network: DescriptorNetwork
        do {
            network = try DescriptorNetwork()
        } catch FaceDescriptorError.modelMissing {
            return nil
        }
        let folder = "Tests/Fixtures/identity/"
        guard let document = try JSONSerialization.jsonObject(with: readFile(folder + "descriptors.json")) as? [String: Any],
              let entries = document["faces"] as? [[String: Any]] else {
            throw CommandError("\(folder)descriptors.json: not the fixture file")
        }
        var decoder = JPEGDecoder()
        var faces: [(image: RGBImage, points: [SIMD2<Int>])] = []
        for entry in entries {
            guard let image = entry["image"] as? String, let points = entry["points"] as? [[Int]], points.count == 68 else {
                throw CommandError("\(folder)descriptors.json: a face without image or 68 points")
            }
            faces.append((try decoder.decodeRGB(readFile(folder + image)), points.map { SIMD2($0[0], $0[1]) }))
        }
        var chip = FaceChip()
        var output = [Float](repeating: 0, count: DescriptorNetwork.descriptorLength)
        var next = 0
        func face() -> (image: RGBImage, points: [SIMD2<Int>]) {
            defer { next = (next + 1) % faces.count }
            return faces[next]
        }
        let runs = max(32, iterations / 20)
        let chipTimes = try measure(runs) {
            let f = face()
            try chip.extract(from: f.image, points: f.points)
        }
        let networkTimes = try measure(runs) {
            let f = face()
            try chip.extract(from: f.image, points: f.points)
            chip.pixels.withUnsafeBufferPointer { c in output.withUnsafeMutableBufferPointer { network.describe(chip: c, into: $0) } }
        }
        return [("face chip", chipTimes), ("face descriptor", networkTimes)]
    }

    private func measure(_ iterations: Int, _ body: () throws -> Void) throws -> TimingSummary {
        for _ in 0..<max(1, iterations / 10) { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = Clock.now()
            try body()
            samples.append((Clock.now() - start) * 1000)
        }
        return TimingSummary(samples)
    }
}

/// Encodes every event as the writer would, keeps nothing, and times itself.
private final class TimedNullSink: EventSink {
    private let encoder = EventEncoder()
    private var buffer: [UInt8] = []
    var seconds = 0.0

    func write(_ event: Event) throws {
        let start = Clock.now()
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        seconds += Clock.now() - start
    }
}
