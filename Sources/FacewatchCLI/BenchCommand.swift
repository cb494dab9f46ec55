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
            Replays the first RECORDING (default: the bundled Recordings/blinks-slow-move, found next to the \
            executable or in the working directory) once to warm up, then --rounds times with every frame \
            processed, timing each stage of each frame: decode, detect (full-frame detection), track (window \
            checks), landmarks (fits of tracked faces), expressions (measures, state machines) and output (JSON \
            encoding). Then micro-benchmarks on its first frame (decode, detection, one landmark fit repeated, \
            the window check a tracked face gets, a tracked frame), the pipeline at three frame sizes (the bundled \
            1280×720 recording Recordings/hd/pexels-langer-720p as recorded, scaled to 1920×1080, and to 640×360 on a black \
            640×480: \
            stages, FPS on one thread, FPS as `replay` runs, frames decoded only around the faces, events), the landmark fit on varied frames and faces \
            (every tracked face of every frame of every RECORDING, in turn; default adds the bundled hopper-blinks \
            for a second face), the model's load time (from the .dat file and from its ready-to-map copy) and \
            memory, and, with the face descriptor model installed (Scripts/setup-models) in the repository, \
            dlib's face chip and descriptor network on the 16 faces of Tests/Fixtures/identity in turn (compare \
            with Scripts/bench_dlib_descriptor.py; pin both to one core with `taskset -c 0`).
            """
    )

    @Argument(help: "Recording folders: the first for the pipeline, all of them for the varied-frame fit.")
    var recordings: [String] = []

    @OptionGroup var options: ConfigOptions

    @Option(help: "Timed passes over the recording after the warm-up pass.")
    var rounds = 3

    @Option(help: "Timed iterations per micro-benchmark (after a warm-up of a tenth as many).")
    var iterations = 2000

    @Option(help: "A folder whose 640×480 JPEGs are added to the varied frames of the HOG benchmarks (e.g. Tests/Fixtures/hog).")
    var hogFrames: String?

    @Flag(help: "Print one JSON object instead of tables.")
    var json = false

    func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1") }
        guard iterations >= 1 else { throw ValidationError("--iterations must be at least 1") }
        if let hogFrames { _ = try Self.jpegs(in: hogFrames) }
    }

    mutating func run() throws {
        let configuration = try options.load()
        let chosen = try recordings.isEmpty ? Self.bundledRecordings() : recordings
        let recording = chosen[0]
        let rssBefore = ResidentMemory.current()
        let loadStart = MonotonicClock.now()
        var predictor = try ShapePredictor(contentsOf: configuration.landmarkModel)
        let loadSeconds = MonotonicClock.now() - loadStart
        let modelMB = Double(ResidentMemory.current() - rssBefore) / 1_048_576
        // A start after the first maps the model's ready-to-map copy (models.landmark_cache):
        // time that too, and run everything below on the copy, as the commands do.
        var cachedLoadSeconds: Double?
        if let cache = configuration.landmarkCache {
            _ = try ShapePredictor(contentsOf: configuration.landmarkModel, cache: cache)  // writes a missing or stale copy
            let start = MonotonicClock.now()
            let mapped = try ShapePredictor(contentsOf: configuration.landmarkModel, cache: cache)
            if mapped.fromCache { (predictor, cachedLoadSeconds) = (mapped, MonotonicClock.now() - start) }
        }
        let cachedLoad = cachedLoadSeconds.map { String(format: "%.3f", $0) } ?? "null"

        let opened = try chosen.map { try Recording(directory: $0) }
        let pipeline = try benchRecording(opened[0], configuration, predictor: predictor)
        var micro = try benchMicro(opened[0], configuration, predictor: predictor) + benchHOG(opened, configuration)
        let varied = try variedFaces(opened, configuration, predictor: predictor)
        var shape = FaceShape(points: [])
        var next = 0
        micro.append(("landmark fit, varied", try measure(iterations) {
            let (image, box) = varied.faces[next]
            predictor.fit(image, box: box, into: &shape)
            next = (next + 1) % varied.faces.count
        }))
        let empty = try benchEmptyScene(opened[0], configuration, predictor: predictor)
        let large = Self.bundledLargeRecording()
        let sizes = try large.map { try benchResolutions(Recording(directory: $0), configuration, predictor: predictor) }
        let identity = try benchDescriptor()
        micro += identity ?? []
        let rss = Double(ResidentMemory.current()) / 1_048_576

        if json {
            func object(_ stages: [(String, TimingSummary)]) -> String {
                "{" + stages.map { "\"\($0.0)\": \($0.1.json)" }.joined(separator: ", ") + "}"
            }
            print("{\"recording\": \(JSONString.literal(recording)), \"frames\": \(pipeline.frames), \"rounds\": \(rounds), "
                + "\"fps\": \(String(format: "%.1f", pipeline.fps)), "
                + "\"detector_calls_per_frame\": \(String(format: "%.4f", pipeline.detectorCallsPerFrame)), "
                + "\"stages_ms\": \(object(pipeline.stages)), \"micro_ms\": \(object(micro)), "
                + "\"empty_scene\": {\"core_percent\": \(String(format: "%.2f", 100 * empty.coreShare)), "
                + "\"looks_per_s\": \(String(format: "%.2f", empty.looksPerSecond)), "
                + "\"walk_in_found_worst_s\": \(String(format: "%.3f", empty.worstDelay)), "
                + "\"walk_in_found_mean_s\": \(String(format: "%.3f", empty.meanDelay))}, "
                + "\"model_load_s\": \(String(format: "%.3f", loadSeconds)), \"model_load_cached_s\": \(cachedLoad), "
                + "\"model_mb\": \(String(format: "%.1f", modelMB)), "
                + "\"frame_sizes\": \(sizes.map(Self.resolutionsJSON) ?? "null"), "
                + "\"resident_mb\": \(String(format: "%.1f", rss))}")
            return
        }
        print("recording \(recording): \(pipeline.frames) frames × \(rounds) rounds after a warm-up, decoded and processed "
              + "one after another on one thread, with the helper threads of detector.threads \(configuration.hog.threads) "
              + "and tracking.threads \(configuration.tracking.threads); total is the stages' sum (more than the frame's "
              + "wall time when a fit runs beside a window check)")
        print("stage".padding(toLength: 24, withPad: " ", startingAt: 0) + TimingSummary.header)
        for (name, summary) in pipeline.stages {
            print(name.padding(toLength: 24, withPad: " ", startingAt: 0) + summary.row)
        }
        print(String(format: "end to end: %.0f frames per second; full-frame detector on %.4f of frames (1 in %.0f)",
                     pipeline.fps, pipeline.detectorCallsPerFrame, 1 / max(pipeline.detectorCallsPerFrame, 1e-9)))
        if let sizes, let large { Self.printResolutions(sizes, recording: large) }
        print("\nmicro-benchmarks, \(iterations) iterations: the first frame of \(recording) (decode, detection, "
              + "landmark fit repeated: one face, cache-warm), and \"landmark fit, varied\": \(varied.faces.count) tracked "
              + "faces from every frame of \(chosen.joined(separator: ", ")) in turn (\(varied.people) recordings), as in a live stream")
        for (name, summary) in micro {
            print(name.padding(toLength: 24, withPad: " ", startingAt: 0) + summary.row)
        }
        print(String(format: "\nempty 640×480 view at 30 fps (%@ detector): %.2f %% of one core (decode not included), %.2f full-frame looks/s",
                     configuration.detectorKind.rawValue, 100 * empty.coreShare, empty.looksPerSecond))
        print(String(format: "a face walking in (%d arrivals over the scan schedule): found %.3f s after it is fully in view at worst, %.3f s on average",
                     empty.trials, empty.worstDelay, empty.meanDelay))
        if identity == nil { print("face descriptor: skipped (needs the model from Scripts/setup-models and the repository's Tests/Fixtures/identity)") }
        print(String(format: "\nmodel: %@; load %.3f s from the .dat file (%@ s from its ready-to-map copy), %.1f MB resident; "
                     + "process resident %.1f MB", predictor.structure.description, loadSeconds, cachedLoad, modelMB, rss))
    }

    struct PipelineFigures {
        var frames = 0
        var fps = 0.0
        var detectorCallsPerFrame = 0.0
        var stages: [(String, TimingSummary)] = []
    }

    /// The executable, its links resolved.
    private static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0].contains("/") ? CommandLine.arguments[0] : "/proc/self/exe")
            .resolvingSymlinksInPath()
    }

    /// Where bundled files are looked for: the working directory, then every folder above the
    /// executable and its `share/facewatch` (an installed prefix, or the repository a build lives in).
    static var searchRoots: [String] {
        var roots = [FileManager.default.currentDirectoryPath]
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" {
            roots.append(folder.path)
            roots.append(folder.appendingPathComponent("share/facewatch").path)
            folder = folder.deletingLastPathComponent()
        }
        return roots
    }

    /// The bundled recordings next to the executable (an installed `share/facewatch/Recordings`,
    /// or the repository a build lives in) or in the working directory.
    static func bundledRecordings() throws -> [String] {
        let names = ["blinks-slow-move", "hopper-blinks"]
        for root in searchRoots {
            let paths = names.map { "\(root)/Recordings/\($0)" }
            if paths.allSatisfy({ FileManager.default.fileExists(atPath: "\($0)/recording.json") }) { return paths }
        }
        throw CommandError("no recording given and no bundled Recordings/ found next to \(executable.path) or in the working directory: run `facewatch bench RECORDING`")
    }

    /// Every tracked face of every frame of the recordings, with its frame (for the varied-frame fit).
    private func variedFaces(_ recordings: [Recording], _ configuration: Configuration,
                             predictor: ShapePredictor) throws -> (faces: [(GrayImage, FaceBox)], people: Int) {
        var faces: [(GrayImage, FaceBox)] = []
        for opened in recordings {
            let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
            var source = RecordingSource(recording: opened)
            var decoder = JPEGDecoder()
            while let frame = try? source.nextFrame() {
                let result = processor.process(frame) { _ in }
                guard case .jpeg(let jpeg) = frame.payload else { continue }
                let image = try decoder.decodeGray(jpeg, conversion: configuration.gray)
                for face in result.faces { faces.append((image, face.box)) }
            }
        }
        guard !faces.isEmpty else { throw CommandError("no face was tracked in \(recordings.map(\.directory).joined(separator: ", "))") }
        return (faces, recordings.count)
    }

    /// Replays the recording `rounds + 1` times (the first untimed) and times every frame's stages.
    func benchRecording(_ opened: Recording, _ configuration: Configuration, predictor: ShapePredictor) throws -> PipelineFigures {
        var samples: [String: [Double]] = [:]
        var wall = 0.0, frames = 0, detections = 0
        var progress = ProgressLine(total: opened.frames.count * (rounds + 1), label: "bench")
        for round in 0...max(rounds, 1) {
            let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
            let sink = TimedNullSink()
            var source = RecordingSource(recording: opened)
            let started = MonotonicClock.now()
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
                wall += MonotonicClock.now() - started
                frames += processor.processedFrames
                detections += processor.detectorRuns
            }
        }
        progress.finish()
        let order = ["decode", "detect", "track", "landmarks", "expressions", "output", "total"]
        return PipelineFigures(frames: opened.frames.count, fps: Double(frames) / max(wall, 1e-9),
                               detectorCallsPerFrame: Double(detections) / Double(max(frames, 1)),
                               stages: order.map { ($0, TimingSummary(samples[$0] ?? [])) })
    }

    /// Decode, one landmark fit, one full-frame detection and one tracked frame on the recording's first frame.
    private func benchMicro(_ opened: Recording, _ configuration: Configuration, predictor: ShapePredictor) throws -> [(String, TimingSummary)] {
        let jpeg = try opened.jpeg(0)
        let image = "frame 0 of \(opened.directory)"
        var decoder = JPEGDecoder()
        var gray = GrayImage(width: 0, height: 0)
        var results: [(String, TimingSummary)] = []
        for conversion in GrayConversion.allCases {
            results.append(("decode \(conversion.rawValue)", try measure(iterations) {
                try decoder.decode(jpeg, into: &gray, conversion: conversion)
            }))
        }
        try decoder.decode(jpeg, into: &gray, conversion: configuration.gray)
        var detector = try configuration.loadFaceDetector()
        var faces: [DetectedFace] = []
        results.append(("full-frame detection", try measure(max(20, iterations / 10)) {
            detector.detect(gray, look: 0, into: &faces)
        }))
        let tracker = FaceTracker(detector: detector, predictor: predictor, settings: configuration.tracking)
        tracker.update(gray, t: 0)
        guard let face = tracker.faces.first, tracker.faces.count == 1 else {
            throw CommandError("\(image): the detector does not find exactly one face")
        }
        var shape = FaceShape(points: [])
        results.append(("landmark fit, repeated", try measure(iterations) {
            predictor.fit(gray, box: face.box, into: &shape)
        }))
        // The window check a tracked face gets every `verify_every_frames` frames: the area around
        // its box resampled upright and scanned (not the same work as the detector's `ScanArea`
        // scan of the frame, "hog around the face").
        let checked = predictor.box(fitting: face.shape)
        results.append(("window check", try measure(iterations) {
            precondition(detector.confirm(checked, roll: 0, in: gray), "the window check lost the face")
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
    /// fixtures (varied sizes, one through dlib's pyramid); nil when the model is not installed or the
    /// repository's fixtures are not at hand.
    private func benchDescriptor() throws -> [(String, TimingSummary)]? {
        let network: DescriptorNetwork
        do {
            network = try DescriptorNetwork()
        } catch FaceDescriptorError.modelMissing {
            return nil
        }
        guard let folder = Self.searchRoots.map({ "\($0)/Tests/Fixtures/identity/" })
            .first(where: { FileManager.default.fileExists(atPath: $0 + "descriptors.json") }) else { return nil }
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

    /// The empty-view schedule, with the recording's first frame as the face walking in (see `EmptySceneBench`).
    private func benchEmptyScene(_ opened: Recording, _ configuration: Configuration, predictor: ShapePredictor) throws -> EmptySceneBench {
        var decoder = JPEGDecoder()
        let face = try decoder.decodeGray(try opened.jpeg(0), conversion: configuration.gray)
        return EmptySceneBench(face: face, detector: try configuration.loadFaceDetector(), predictor: predictor,
                               settings: configuration.tracking)
    }

    func measure(_ iterations: Int, _ body: () throws -> Void) throws -> TimingSummary {
        for _ in 0..<max(1, iterations / 10) { try body() }
        var samples: [Double] = []
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = MonotonicClock.now()
            try body()
            samples.append((MonotonicClock.now() - start) * 1000)
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
        let start = MonotonicClock.now()
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        seconds += MonotonicClock.now() - start
    }
}
