import ArgumentParser
import Config
import Events
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

    @Option(help: "Blink detector scored: facewatch (the daemon's events) or classic (mean EAR < 0.21 for 2 consecutive frames, blinks only).")
    var rule: Evaluation.Rule = .facewatch

    @Flag(help: "Also print a summary per person (truth.json's `person`) for a leave-one-person-out table.")
    var byPerson = false

    func validate() throws {
        let unknown = types.split(separator: ",").map(String.init).filter { !Evaluation.types.contains($0) }
        guard unknown.isEmpty else {
            throw ValidationError("--types: unknown \(unknown.joined(separator: ", ")); choose from \(Evaluation.types.joined(separator: ", "))")
        }
        guard (0...1).contains(minF1) else { throw ValidationError("--min-f1 must be from 0 to 1; got \(minF1)") }
        guard (0...60).contains(tolerance) else { throw ValidationError("--tolerance must be from 0 to 60 seconds; got \(tolerance)") }
    }

    mutating func run() throws {
        var configuration = try options.load()
        if rule == .classic {
            configuration.output = OutputOptions(nose: false, frames: true, landmarks: false)
        }
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel, cache: configuration.landmarkCache)
        var results: [Evaluation] = []
        var progress = ProgressLine(total: recordings.count, label: "eval")
        for path in recordings {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                Log.shared.warning("\(path): not a folder, skipped")
                continue
            }
            guard FileManager.default.fileExists(atPath: URL(fileURLWithPath: path).appendingPathComponent("recording.json").path) else {
                Log.shared.warning("\(path): not a recording (no recording.json), skipped")
                continue
            }
            let recording = try Recording(directory: path)
            guard recording.truth != nil else {
                Log.shared.warning("\(path): no truth.json, skipped")
                continue
            }
            let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
            results.append(try Evaluation(recording: recording, processor: processor, tolerance: tolerance, rule: rule))
            progress.update(results.count)
        }
        progress.finish()
        guard !results.isEmpty else { throw CommandError("no recording with a truth.json among \(recordings.count) given") }

        let scored = Evaluation.types.filter { types.split(separator: ",").map(String.init).contains($0) }
        let table = EvalTable()
        print(table.header)
        var failed: [String] = []
        for result in results {
            let name = URL(fileURLWithPath: result.recording).lastPathComponent
            for type in scored {
                let score = result.scores[type]!
                if score.truePositives + score.falsePositives + score.falseNegatives > 0 { print(table.row(name, type, score)) }
            }
            let total = scored.map { result.scores[$0]! }.reduce(DetectionScore(), +)
            print(table.row(name, "all", total))
            if total.f1 < minF1 { failed.append(name) }
        }
        print(table.rule)
        for type in scored {
            print(table.row("all recordings", type, results.map { $0.scores[type]! }.reduce(DetectionScore(), +)))
        }
        let negatives = results.map(\.negatives).reduce(0, +)
        if negatives > 0 {
            let hits = ["blink", "wink", "eyes_closed"].map { type in "\(results.map { $0.negativeHits[type] ?? 0 }.reduce(0, +)) \(type)" }
            print("negatives (squint, look down, ...): \(negatives); reported over them: \(hits.joined(separator: ", "))")
        }
        let unsure = scored.compactMap { type -> String? in
            let count = results.map { $0.unsureHits[type] ?? 0 }.reduce(0, +)
            return count > 0 ? "\(count) \(type)" : nil
        }
        if !unsure.isEmpty {
            print("not scored (reported where the truth is unsure): \(unsure.joined(separator: ", "))")
        }
        if byPerson {
            print("")
            print(table.header.replacingOccurrences(of: "recording", with: "person   "))
            for person in Set(results.map(\.person)).sorted() {
                let mine = results.filter { $0.person == person }
                for type in scored {
                    let score = mine.map { $0.scores[type]! }.reduce(DetectionScore(), +)
                    if score.truePositives + score.falsePositives + score.falseNegatives > 0 { print(table.row(person, type, score)) }
                }
            }
        }
        if !failed.isEmpty {
            throw CommandError("F1 below \(minF1) in: \(failed.joined(separator: ", "))")
        }
    }
}

extension Evaluation.Rule: ExpressibleByArgument {}
