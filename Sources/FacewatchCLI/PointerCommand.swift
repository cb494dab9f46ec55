import ArgumentParser
import Capture
import Config
import Daemon
import Events
import FacewatchKit
import Foundation
import Pipeline
import Pointer
import Recordings

/// `facewatch pointer`: the nose moves the mouse pointer, a long blink or a wink clicks.
struct PointerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pointer",
        abstract: "Move the pointer with the nose and click with a long blink or a wink (Linux uinput).",
        discussion: """
            Hold your head still for pointer.calibrate_s seconds at the start: that is the neutral point. Then \
            the pointer moves pointer.gain times as far across the screen as the nose moves across the frame, \
            outside a dead zone, smoothed by a One Euro filter. Needs write access to /dev/uinput (see \
            Scripts/99-facewatch-uinput.rules); --dry-run prints the moves and clicks as JSON lines instead. \
            --replay plays a recording (every frame, deterministic) instead of a camera.
            """
    )

    @Option(help: "Drive the pointer from a recording folder instead of a camera.")
    var replay: String?

    @Flag(help: "Print the pointer moves and clicks as JSON lines instead of moving the pointer.")
    var dryRun = false

    @Option(help: "The uinput device.")
    var uinput = "/dev/uinput"

    @OptionGroup var camera: CameraOptions
    @OptionGroup var options: ConfigOptions

    func validate() throws {
        if replay != nil && camera.device != nil { throw ValidationError("use either --device or --replay") }
    }

    mutating func run() throws {
        var configuration = try options.load()
        configuration.output = OutputOptions(nose: true, frames: false, landmarks: false)
        let output: PointerOutput = dryRun ? DryRunOutput() : try UInputPointer(path: uinput)
        let driver = PointerDriver(settings: configuration.pointer, output: output)
        let processor = try FrameProcessor(configuration: configuration)
        if let replay {
            let recording = try Recording(directory: replay)
            var source = RecordingSource(recording: recording)
            _ = try Replay.run(&source, processor: processor, sink: driver)
            return
        }
        let chosen = try camera.apply(to: configuration.camera)
        let opened = try Camera(settings: chosen.settings)
        defer { opened.close() }
        let pipeline = LivePipeline(processor: processor, sink: driver, statsInterval: configuration.statsInterval,
                                    upstreamDrops: { opened.droppedFrames })
        let signals = SignalWatcher { _ in pipeline.stop() }
        defer { withExtendedLifetime(signals) {} }
        var source = LiveSource(camera: opened, reconnector: Reconnector(deadline: chosen.reconnectFor), recorder: nil,
                                report: pipeline.report)
        do {
            _ = try pipeline.run(&source)
        } catch let error as EventsError where error.isBrokenPipe {
        }
    }
}
