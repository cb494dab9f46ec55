import ArgumentParser
import Capture
import Config
import Daemon
import Events
import FacewatchKit
import Foundation
import Pipeline
import Recordings
import Sinks

/// `facewatch run`: the daemon. Captures from a camera, processes the newest frame, writes
/// events as JSON lines on standard output (and to a Unix socket), until SIGINT/SIGTERM.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon on a camera: events as JSON lines on standard output (and --socket, --http, --mqtt).",
        discussion: """
            Capture, processing and writing run on their own queues with a one-slot handoff: the newest frame \
            wins, late frames are dropped and counted in `stats` lines (every second). SIGINT or SIGTERM stops \
            capture, flushes the events and exits 0; a reader that closes the pipe ends it quietly with 0. An \
            unplugged camera gives an `error` event and is reopened with backoff for --reconnect-for seconds, \
            then the daemon exits 1.
            """
    )

    @OptionGroup var camera: CameraOptions
    @OptionGroup var options: ConfigOptions
    @OptionGroup var output: OutputFlags
    @OptionGroup var web: WebOptions
    @OptionGroup var broker: MQTTOptions

    @Option(help: "Also serve the events to local clients on this Unix socket path. Default: socket.path.")
    var socket: String?

    @Option(help: "Permissions of the socket file, octal. Default: socket.mode (0600).")
    var socketMode: String?

    @Option(help: "Also record the camera's frames into this new recording folder.")
    var record: String?

    mutating func run() throws {
        let (requested, httpBind) = web.apply(to: broker.apply(to: try output.apply(to: options.load())), serving: false)
        let pageFilter = try output.filter(requested)
        let (configuration, filter) = Integrations.processing(requested, httpBind: httpBind, filter: pageFilter)
        var mode = mode_t(configuration.socketMode)
        if let socketMode {
            guard let parsed = mode_t(socketMode, radix: 8), parsed <= 0o777 else {
                throw ValidationError("--socket-mode must be octal permissions such as 0600")
            }
            mode = parsed
        }
        let chosen = try camera.apply(to: configuration.camera)
        let processor = try FrameProcessor(configuration: configuration)
        let opened = try Camera(settings: chosen.settings)
        defer { opened.close() }
        // A corrupt frame cannot claim more pixels than the camera was asked for.
        processor.limitFrameSize(width: opened.format.width, height: opened.format.height)
        Log.shared.info("capturing from \(chosen.device): \(opened.format)")

        let stdout = JSONLinesWriter(fileDescriptor: STDOUT_FILENO, filter: filter)
        let server = try (socket ?? configuration.socketPath).map { try SocketEventServer(path: $0, mode: mode, filter: filter) }
        let outputs = try Integrations(configuration: configuration, httpBind: httpBind, pageFilter: pageFilter, filter: filter,
                                       socket: server, logger: Log.shared)
        let recorder = try record.map { try RecordingWriter(directory: $0, info: opened.recordingInfo) }
        let live = LiveRun(outputs: outputs, processor: processor, stdout: stdout, statsInterval: configuration.statsInterval,
                           upstreamDrops: { opened.droppedFrames }, giveUpAfter: ReplayCommand.shutdownWriteTimeout) {
            Log.shared.info("SIGINT or SIGTERM: stopping")
        }
        let source = LiveSource(camera: opened, reconnector: Reconnector(deadline: chosen.reconnectFor),
                                recorder: recorder, report: live.pipeline.report)
        do {
            switch try live.run(source) {
            case .finished(let summary):
                if let error = outputs.finish() { throw error }
                try recorder?.finish()
                Log.shared.info("stopped: \(summary.processed) of \(summary.captured) frames processed, \(summary.dropped) dropped in the handoff, \(opened.droppedFrames) by the camera, \(summary.droppedLines) nose/frame lines dropped for a slow reader")
            case .readerGone:
                _ = outputs.finish()
                try recorder?.finish()  // the reader went away: a normal end
            case .writeTimedOut:
                try recorder?.finish()
                Log.shared.warning("stopped by a signal; standard output is not being read, so the closing lines were not written")
            }
        } catch {
            _ = outputs.finish()
            try? recorder?.finish()
            throw error
        }
    }
}
