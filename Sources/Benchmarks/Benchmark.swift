import Config
import Events
import FaceCore
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings

/// The measurements of `facewatch bench`: the whole pipeline and its hot paths on one processing
/// thread, after a warm-up, gathered into a `BenchReport` (which the command prints as tables or
/// as JSON).
public struct Benchmark {
    /// Timed passes over a recording after the warm-up pass.
    public var rounds: Int
    /// Timed iterations per micro-benchmark (after a warm-up of a tenth as many).
    public var iterations: Int
    /// A folder whose 640×480 JPEGs are added to the varied frames of the HOG benchmarks.
    public var hogFrames: String?
    /// Where bundled files (recordings, the identity fixtures) are looked for.
    public var files: BundledFiles

    public init(rounds: Int = 3, iterations: Int = 2000, hogFrames: String? = nil, files: BundledFiles = BundledFiles()) {
        self.rounds = rounds
        self.iterations = iterations
        self.hogFrames = hogFrames
        self.files = files
    }

    /// Measures everything on `recordings` (the first for the pipeline, all of them for the
    /// varied-frame fit; none: the bundled ones).
    public func run(recordings: [String], configuration: Configuration) throws -> BenchReport {
        let chosen = try recordings.isEmpty ? files.recordings() : recordings
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

        let opened = try chosen.map { try Recording(directory: $0) }
        let pipeline = try benchRecording(opened[0], configuration, predictor: predictor)
        var micro = try benchMicro(opened[0], configuration, predictor: predictor) + benchHOG(opened, configuration)
        let varied = try variedFaces(opened, configuration, predictor: predictor)
        var shape = FaceShape(points: [])
        var next = 0
        micro.append(("landmark fit, varied", try measure(iterations) {
            let (image, box) = varied[next]
            predictor.fit(image, box: box, into: &shape)
            next = (next + 1) % varied.count
        }))
        let empty = try benchEmptyScene(opened[0], configuration, predictor: predictor)
        let large = files.largeRecording()
        let sizes = try large.map { try benchResolutions(Recording(directory: $0), configuration, predictor: predictor) }
        let identity = try benchDescriptor()
        micro += identity ?? []
        return BenchReport(
            recordings: chosen, rounds: rounds, iterations: iterations, pipeline: pipeline, micro: micro,
            variedFaces: varied.count, emptyScene: empty, largeRecording: large, frameSizes: sizes,
            descriptorMeasured: identity != nil, modelStructure: predictor.structure.description,
            modelLoadSeconds: loadSeconds, cachedModelLoadSeconds: cachedLoadSeconds, modelMB: modelMB,
            residentMB: Double(ResidentMemory.current()) / 1_048_576)
    }

    /// Every tracked face of every frame of the recordings, with its frame (for the varied-frame fit).
    private func variedFaces(_ recordings: [Recording], _ configuration: Configuration,
                             predictor: ShapePredictor) throws -> [(GrayImage, FaceBox)] {
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
        guard !faces.isEmpty else { throw BenchmarkError("no face was tracked in \(recordings.map(\.directory).joined(separator: ", "))") }
        return faces
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

    /// The empty-view schedule, with the recording's first frame as the face walking in (see `EmptySceneBench`).
    private func benchEmptyScene(_ opened: Recording, _ configuration: Configuration, predictor: ShapePredictor) throws -> EmptySceneBench {
        var decoder = JPEGDecoder()
        let face = try decoder.decodeGray(try opened.jpeg(0), conversion: configuration.gray)
        return EmptySceneBench(face: face, detector: try configuration.loadFaceDetector(), predictor: predictor,
                               settings: configuration.tracking)
    }

    /// A whole file, with an error naming the path.
    static func contents(of path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw BenchmarkError("\(path): cannot read the file") }
        return data
    }

    /// Runs `body` a tenth of `iterations` times to warm up, then `iterations` times timed (ms).
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
