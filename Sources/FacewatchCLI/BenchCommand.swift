import ArgumentParser
import Benchmarks
import Foundation
import Pipeline

/// `facewatch bench [RECORDING]`: a benchmark of the whole pipeline and its hot paths, one
/// processing thread, after a warm-up: the `Benchmarks` module measures, this command prints.
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
        if let hogFrames {
            do {
                _ = try Benchmark.jpegs(in: hogFrames)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    mutating func run() throws {
        let configuration = try options.load()
        let benchmark = Benchmark(rounds: rounds, iterations: iterations, hogFrames: hogFrames)
        let report = try benchmark.run(recordings: recordings, configuration: configuration)
        if json {
            print(report.json)
            return
        }
        let recording = report.recording, pipeline = report.pipeline, empty = report.emptyScene
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
        if let sizes = report.frameSizes, let large = report.largeRecording { Self.printResolutions(sizes, recording: large) }
        print("\nmicro-benchmarks, \(iterations) iterations: the first frame of \(recording) (decode, detection, "
              + "landmark fit repeated: one face, cache-warm), and \"landmark fit, varied\": \(report.variedFaces) tracked "
              + "faces from every frame of \(report.recordings.joined(separator: ", ")) in turn (\(report.recordings.count) recordings), as in a live stream")
        for (name, summary) in report.micro {
            print(name.padding(toLength: 24, withPad: " ", startingAt: 0) + summary.row)
        }
        print(String(format: "\nempty 640×480 view at 30 fps (%@ detector): %.2f %% of one core (decode not included), %.2f full-frame looks/s",
                     configuration.detectorKind.rawValue, 100 * empty.coreShare, empty.looksPerSecond))
        print(String(format: "a face walking in (%d arrivals over the scan schedule): found %.3f s after it is fully in view at worst, %.3f s on average",
                     empty.trials, empty.worstDelay, empty.meanDelay))
        if !report.descriptorMeasured { print("face descriptor: skipped (needs the model from Scripts/setup-models and the repository's Tests/Fixtures/identity)") }
        print(String(format: "\nmodel: %@; load %.3f s from the .dat file (%@ s from its ready-to-map copy), %.1f MB resident; "
                     + "process resident %.1f MB", report.modelStructure, report.modelLoadSeconds, report.cachedModelLoad,
                     report.modelMB, report.residentMB))
    }

    /// The table of the frame sizes.
    private static func printResolutions(_ figures: [ResolutionFigures], recording: String) {
        print("\nframe sizes: \(recording) scaled to each size (to 640×360 on a black 640×480; JPEG quality 70); stages on one thread as above, "
              + "\"replay\" as `facewatch replay` runs it (decoding on other threads), best of the rounds; "
              + "\"in part\": frames decoded only around the face when decoding on the processing thread")
        print("size        KB/frame  decode  detect   track  landmarks  total (ms)  one thread  replay FPS  in part  events")
        for f in figures {
            let stage = f.pipeline.mean
            print("\(f.width)×\(f.height)".padding(toLength: 11, withPad: " ", startingAt: 0)
                  + String(format: "%9.1f  %6.3f  %6.3f  %6.3f  %9.3f  %10.3f  %10.0f  %10.0f  %6.0f%%  ",
                           Double(f.jpegBytes) / 1024, stage("decode"), stage("detect"), stage("track"),
                           stage("landmarks"), stage("total"), f.pipeline.fps, f.replayFPS, 100 * f.partlyDecoded)
                  + f.eventCounts)
        }
    }
}
