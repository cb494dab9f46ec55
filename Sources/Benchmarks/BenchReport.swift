import Events
import Foundation
import Pipeline

/// Everything one `Benchmark` run measured, and its JSON form (`facewatch bench --json`).
public struct BenchReport: Sendable {
    /// The recordings measured: the first for the pipeline, all of them for the varied-frame fit.
    public var recordings: [String]
    public var rounds: Int
    public var iterations: Int
    /// The whole pipeline on the first recording, one processing thread.
    public var pipeline: PipelineFigures
    /// The micro-benchmarks (ms), by name, in the order they ran.
    public var micro: [(String, TimingSummary)]
    /// How many tracked faces the varied-frame fit cycles through.
    public var variedFaces: Int
    /// An empty view's cost and how soon a face walking into it is found.
    public var emptyScene: EmptySceneBench
    /// The bundled 1280×720 recording measured at several frame sizes, when it was found.
    public var largeRecording: String?
    public var frameSizes: [ResolutionFigures]?
    /// Whether the face chip and descriptor network were measured (their model and the
    /// identity fixtures were found); their figures are the last of `micro`.
    public var descriptorMeasured: Bool
    /// The landmark model's shape, in words.
    public var modelStructure: String
    /// Seconds to load the landmark model from its .dat file, and from its ready-to-map copy
    /// (nil: no copy configured or usable).
    public var modelLoadSeconds: Double
    public var cachedModelLoadSeconds: Double?
    /// Resident memory the model took, and the process's at the end (MB).
    public var modelMB: Double
    public var residentMB: Double

    /// The recording the pipeline was measured on.
    public var recording: String { recordings[0] }

    /// The cached load time with three decimals, or `null`.
    public var cachedModelLoad: String {
        cachedModelLoadSeconds.map { String(format: "%.3f", $0) } ?? "null"
    }

    /// One JSON object (no line break): the pipeline's figures, the micro-benchmarks, the empty
    /// scene, the model, the frame sizes (or `null`) and resident memory.
    public var json: String {
        func object(_ stages: [(String, TimingSummary)]) -> String {
            "{" + stages.map { "\(JSONString.literal($0.0)): \($0.1.json)" }.joined(separator: ", ") + "}"
        }
        let empty = emptyScene
        let sizes = frameSizes.map { figures in
            "[" + figures.map { f in
                "{\"width\": \(f.width), \"height\": \(f.height), \"jpeg_bytes\": \(f.jpegBytes), "
                    + "\"fps\": \(String(format: "%.1f", f.pipeline.fps)), \"replay_fps\": \(String(format: "%.1f", f.replayFPS)), "
                    + "\"partly_decoded\": \(String(format: "%.3f", f.partlyDecoded)), \"events\": \(JSONString.literal(f.eventCounts)), "
                    + "\"stages_ms\": \(object(f.pipeline.stages))}"
            }.joined(separator: ", ") + "]"
        }
        return "{\"recording\": \(JSONString.literal(recording)), \"frames\": \(pipeline.frames), \"rounds\": \(rounds), "
            + "\"fps\": \(String(format: "%.1f", pipeline.fps)), "
            + "\"detector_calls_per_frame\": \(String(format: "%.4f", pipeline.detectorCallsPerFrame)), "
            + "\"stages_ms\": \(object(pipeline.stages)), \"micro_ms\": \(object(micro)), "
            + "\"empty_scene\": {\"core_percent\": \(String(format: "%.2f", 100 * empty.coreShare)), "
            + "\"looks_per_s\": \(String(format: "%.2f", empty.looksPerSecond)), "
            + "\"walk_in_found_worst_s\": \(String(format: "%.3f", empty.worstDelay)), "
            + "\"walk_in_found_mean_s\": \(String(format: "%.3f", empty.meanDelay))}, "
            + "\"model_load_s\": \(String(format: "%.3f", modelLoadSeconds)), \"model_load_cached_s\": \(cachedModelLoad), "
            + "\"model_mb\": \(String(format: "%.1f", modelMB)), "
            + "\"frame_sizes\": \(sizes ?? "null"), "
            + "\"resident_mb\": \(String(format: "%.1f", residentMB))}"
    }
}
