import ArgumentParser
import Config
import Foundation
import Landmarks
import Pipeline
import Recordings
import Reports

/// `facewatch eval RECORDING...`: replays recordings that have a `truth.json` and prints
/// precision, recall and F1 per event type and per recording.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score the events of recordings against their truth.json (TP, FP, FN, precision, recall, F1).",
        discussion: "A reported event matches a truth event of its type when their intervals overlap or lie within --tolerance seconds. Exits 1 when a recording's F1 over the --types is below --min-f1."
    )

    @Argument(help: "Recording folders; files and folders without truth.json are skipped.")
    var recordings: [String]

    @OptionGroup var options: ConfigOptions

    @Option(help: "Fail (exit 1) when a recording's F1 over all event types is below this.")
    var minF1: Double = 0

    @Option(help: "Seconds between a reported and a truth interval that still count as a match.")
    var tolerance: Double = 0.25

    @Option(help: "Event types scored and gated, comma-separated (default: blink, wink, eyes_closed, smile, mouth_open).")
    var types: String = Evaluation.types.joined(separator: ",")

    func validate() throws {
        let unknown = types.split(separator: ",").map(String.init).filter { !Evaluation.types.contains($0) }
        guard unknown.isEmpty else {
            throw ValidationError("--types: unknown \(unknown.joined(separator: ", ")); choose from \(Evaluation.types.joined(separator: ", "))")
        }
    }

    mutating func run() throws {
        let configuration = try options.load()
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel)
        var results: [Evaluation] = []
        var progress = ProgressLine(total: recordings.count, label: "eval")
        for path in recordings {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                Log.shared.warning("\(path): not a folder, skipped")
                continue
            }
            let recording = try Recording(directory: path)
            guard recording.truth != nil else {
                Log.shared.warning("\(path): no truth.json, skipped")
                continue
            }
            let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
            results.append(try Evaluation(recording: recording, processor: processor, tolerance: tolerance))
            progress.update(results.count)
        }
        progress.finish()
        guard !results.isEmpty else { throw CommandError("no recording with a truth.json among \(recordings.count) given") }

        let header = "recording".padding(toLength: 28, withPad: " ", startingAt: 0)
            + "type".padding(toLength: 12, withPad: " ", startingAt: 0) + "   TP   FP   FN  precision  recall     F1"
        print(header)
        func row(_ name: String, _ type: String, _ s: DetectionScore) -> String {
            name.padding(toLength: 28, withPad: " ", startingAt: 0) + type.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: "%5d%5d%5d%11.3f%8.3f%7.3f", s.truePositives, s.falsePositives, s.falseNegatives,
                         s.precision, s.recall, s.f1)
        }
        let scored = Evaluation.types.filter { types.split(separator: ",").map(String.init).contains($0) }
        var failed: [String] = []
        for result in results {
            let name = URL(fileURLWithPath: result.recording).lastPathComponent
            for type in scored {
                let score = result.scores[type]!
                if score.truePositives + score.falsePositives + score.falseNegatives > 0 { print(row(name, type, score)) }
            }
            let total = scored.map { result.scores[$0]! }.reduce(DetectionScore(), +)
            print(row(name, "all", total))
            if total.f1 < minF1 { failed.append(name) }
        }
        print(String(repeating: "-", count: header.count))
        for type in scored {
            print(row("all recordings", type, results.map { $0.scores[type]! }.reduce(DetectionScore(), +)))
        }
        if !failed.isEmpty {
            throw CommandError("F1 below \(minF1) in: \(failed.joined(separator: ", "))")
        }
    }
}
