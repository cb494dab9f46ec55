import ArgumentParser
import Capture
import Config
import Daemon
import Events
import FacewatchKit
import Foundation
import Pipeline
import Recordings

/// `facewatch serve`: the daemon with its web page, on a camera or a replayed recording.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the daemon with its web server: the live page, /check, SSE events, MJPEG video, /metrics.",
        discussion: """
            Listens on 127.0.0.1:8080 (http.bind) unless --http says otherwise; any address but loopback needs \
            --token (http.token). Video is served only with --video (http.video). Events are also written to \
            standard output as JSON lines, like `run`. With --replay the recording plays in real time (--speed) \
            through the same live pipeline, over and over with --loop.
            """
    )

    @Option(help: "Play this recording folder as the camera (tests, demos).")
    var replay: String?

    @Flag(help: "With --replay: play the recording over and over until stopped.")
    var loop = false

    @Option(help: "With --replay: play at N× the recording's speed (N ≥ 0.01).")
    var speed: Double = 1

    @OptionGroup var camera: CameraOptions
    @OptionGroup var options: ConfigOptions
    @OptionGroup var output: OutputFlags
    @OptionGroup var web: WebOptions
    @OptionGroup var broker: MQTTOptions

    func validate() throws {
        try PlaybackSpeed.validate(speed)
        if replay != nil && camera.device != nil { throw ValidationError("use either --device or --replay") }
        if loop && replay == nil { throw ValidationError("--loop works with --replay") }
    }

    mutating func run() throws {
        let (requested, httpBind) = web.apply(to: broker.apply(to: try output.apply(to: options.load())), serving: true)
        let pageFilter = try output.filter(requested)
        let (configuration, filter) = Integrations.processing(requested, httpBind: httpBind, filter: pageFilter)
        let processor = try FrameProcessor(configuration: configuration)
        let stdout = JSONLinesWriter(fileDescriptor: STDOUT_FILENO, filter: filter)
        let outputs = try Integrations(configuration: configuration, httpBind: httpBind, pageFilter: pageFilter, filter: filter,
                                       logger: Log.shared)
        defer { _ = outputs.finish() }
        if let replay {
            let recording = try Recording(directory: replay)
            let live = LiveRun(outputs: outputs, processor: processor, stdout: stdout, statsInterval: configuration.statsInterval)
            let pipeline = live.pipeline
            for problem in recording.problems { pipeline.report(Event(t: 0, frame: 0, .error(message: problem, code: "recording"))) }
            let source = PacedSource(RecordingSource(recording: recording, loops: loop ? Int.max : 1), speed: speed) { pipeline.isStopping }
            try end(outputs, live.run(source))
            return
        }
        let chosen = try camera.apply(to: configuration.camera)
        let opened = try Camera(settings: chosen.settings)
        defer { opened.close() }
        Log.shared.info("capturing from \(chosen.device): \(opened.format)")
        let live = LiveRun(outputs: outputs, processor: processor, stdout: stdout, statsInterval: configuration.statsInterval,
                           upstreamDrops: { opened.droppedFrames })
        let source = LiveSource(camera: opened, reconnector: Reconnector(deadline: chosen.reconnectFor), recorder: nil,
                                report: live.pipeline.report)
        try end(outputs, live.run(source))
    }

    /// Logs how the run ended, then stops the integrations; a closed standard output is a normal end.
    private func end(_ outputs: Integrations, _ ending: LiveRun.Ending) throws {
        if case .finished(let summary) = ending {
            Log.shared.info("stopped: \(summary.processed) of \(summary.captured) frames processed, \(summary.dropped) dropped")
        }
        if let error = outputs.finish() { throw error }
    }
}
