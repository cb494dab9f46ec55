import ArgumentParser
import Events
import Foundation
import Pipeline
import Recordings

/// `facewatch replay RECORDING`: runs a recording through the whole pipeline and writes the
/// events as JSON lines on standard output.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recording folder through the pipeline and print its events as JSON lines.",
        discussion: "Every frame is processed, as fast as the machine allows; the same recording gives byte-identical output every time."
    )

    @Argument(help: "A recording folder (recording.json, frames.mjpeg, frames.jsonl).")
    var recording: String

    @OptionGroup var options: ConfigOptions
    @OptionGroup var output: OutputFlags

    mutating func run() throws {
        let configuration = try output.apply(to: options.load())
        let opened = try Recording(directory: recording)
        let processor = try FrameProcessor(configuration: configuration)
        Log.shared.info("replaying \(recording): \(opened.frames.count) frames, \(opened.info.width)×\(opened.info.height)")
        let writer = JSONLinesWriter(fileDescriptor: STDOUT_FILENO, filter: try output.filter(configuration))
        var source = RecordingSource(recording: opened)
        var progress = ProgressLine(total: opened.frames.count, label: "replay")
        do {
            let summary = try Replay.run(&source, processor: processor, problems: opened.problems, sink: writer) {
                progress.update($0)
            }
            progress.finish()
            Log.shared.info("\(summary.frames) frames in \(String(format: "%.2f", summary.seconds)) s (\(String(format: "%.0f", Double(summary.frames) / max(summary.seconds, 1e-9))) FPS), \(summary.badFrames) bad, \(processor.tracker.detectorRuns) full-frame detections")
        } catch let error as EventsError where error.isBrokenPipe {
            progress.finish()  // the reader went away (`facewatch replay … | head`): a normal end
        }
    }
}
