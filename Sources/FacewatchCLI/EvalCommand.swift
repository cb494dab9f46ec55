import ArgumentParser
import Foundation
import Landmarks
import Pipeline
import Recordings

/// `facewatch eval RECORDING...`: replays recordings that have a `truth.json` and prints
/// precision, recall and F1 per event type and per recording.
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Score the events of recordings against their truth.json (TP, FP, FN, precision, recall, F1).",
        discussion: "A reported event matches a truth event of its type when their intervals overlap or lie within --tolerance seconds. Exits 1 when a recording's F1 over all types is below --min-f1."
    )

    @Argument(help: "Recording folders; folders without truth.json are skipped.")
    var recordings: [String]

    @OptionGroup var options: ConfigOptions

    @Option(help: "Fail (exit 1) when a recording's F1 over all event types is below this.")
    var minF1: Double = 0

    @Option(help: "Seconds between a reported and a truth interval that still count as a match.")
    var tolerance: Double = 0.25

    mutating func run() throws {
        let configuration = try options.load()
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel)
        var results: [Evaluation] = []
        var progress = ProgressLine(total: recordings.count, label: "eval")
        for path in recordings {
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
        var failed: [String] = []
        for result in results {
            let name = URL(fileURLWithPath: result.recording).lastPathComponent
            for type in Evaluation.types {
                let score = result.scores[type]!
                if score.truePositives + score.falsePositives + score.falseNegatives > 0 { print(row(name, type, score)) }
            }
            print(row(name, "all", result.total))
            if result.total.f1 < minF1 { failed.append(name) }
        }
        print(String(repeating: "-", count: header.count))
        for type in Evaluation.types {
            print(row("all recordings", type, results.map { $0.scores[type]! }.reduce(DetectionScore(), +)))
        }
        if !failed.isEmpty {
            throw CommandError("F1 below \(minF1) in: \(failed.joined(separator: ", "))")
        }
    }
}
