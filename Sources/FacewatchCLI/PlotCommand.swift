import ArgumentParser
import Config
import Events
import Foundation
import Pipeline
import Reports

/// `facewatch plot EVENTS.jsonl --out plot.svg`: EAR, MAR and smile over time with thresholds
/// and events, from saved events (written with --frames) or straight from a replay.
struct PlotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plot",
        abstract: "Draw EAR per eye, MAR and smile over time, with thresholds and events, as SVG.",
        discussion: "Input: events saved with `facewatch replay REC --frames > events.jsonl`, or --replay REC to replay it here."
    )

    @Argument(help: "A JSON-lines event file with frame lines.")
    var events: String?

    @Option(help: "Replay this recording (with frame lines) instead of reading an event file.")
    var replay: String?

    @Option(help: "The SVG file to write.")
    var out: String

    @Option(help: "The face id to plot (default: the first).")
    var face: Int?

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        guard (events == nil) != (replay == nil) else { throw ValidationError("give an event file or --replay RECORDING") }
    }

    mutating func run() throws {
        let text: String
        if let events {
            guard let data = FileManager.default.contents(atPath: events) else { throw CommandError("\(events): cannot read the file") }
            text = String(decoding: data, as: UTF8.self)
        } else {
            var configuration = try options.load()
            configuration.output = OutputOptions(nose: false, frames: true)
            text = try Replay.lines(of: replay!, configuration: configuration).joined()
        }
        let plot = EventPlot(jsonLines: text, face: face)
        if plot.skippedLines > 0 {
            Log.shared.warning("\(events ?? "replay"): \(plot.skippedLines) lines skipped (not JSON event lines, or a time that is not finite or beyond \(Int(EventPlot.maximumTime)) s)")
        }
        guard plot.frameCount > 0 else { throw CommandError("no frame lines with a face to plot (write events with --frames)") }
        do {
            try Data(plot.svg().utf8).write(to: URL(fileURLWithPath: out), options: .atomic)
        } catch {
            throw CommandError("\(out): cannot write (\(error.localizedDescription))")
        }
        Log.shared.info("\(out): \(plot.frameCount) frames of face \(plot.face ?? 0)")
    }
}
