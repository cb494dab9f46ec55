import ArgumentParser
import Capture
import Config
import Daemon
import FacewatchKit
import Foundation

/// `facewatch record`: captures a camera into a recording folder.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record a camera into a recording folder (recording.json, frames.mjpeg, frames.jsonl).",
        discussion: "MJPEG frames are stored exactly as the camera sent them; YUYV and GREY frames are encoded once to JPEG (quality 75). An unplugged camera is reopened (for up to --reconnect-for seconds) and recording carries on."
    )

    @OptionGroup var camera: CameraOptions
    @OptionGroup var options: ConfigOptions

    @Option(help: "Seconds of camera time to record.")
    var seconds: Double

    @Option(help: "The recording folder to create.")
    var out: String

    func validate() throws {
        guard seconds > 0 else { throw ValidationError("--seconds must be positive") }
    }

    mutating func run() throws {
        let clock = SystemClock()
        let chosen = try camera.apply(to: options.load().camera)
        let source = try Camera(settings: chosen.settings, clock: clock)
        Log.shared.info("recording \(chosen.device) (\(source.capabilities.card)): \(source.format) for \(seconds) s into \(out)")
        let reconnector = Reconnector(deadline: chosen.reconnectFor, clock: clock)
        // SIGINT/SIGTERM end the recording early, finished like one that ran its course.
        let signals = SignalWatcher()
        let summary = try CameraRecorder.record(source, seconds: seconds, to: out, reconnector: reconnector,
                                                shouldStop: { signals.received }) {
            Log.shared.warning("\($0)")
        }
        withExtendedLifetime(signals) {}
        Log.shared.info("\(summary.frames) frames recorded, \(source.droppedFrames) dropped, \(summary.skipped) skipped (\(source.badFrames) bad, \(source.timeouts) timeouts), \(summary.reconnects) reconnects")
    }
}
