import ArgumentParser
import Capture
import Config
import Events
import Foundation
import Pipeline
import Recordings
import Sinks

/// `facewatch run`: the daemon. Captures from a camera, processes the newest frame, writes
/// events as JSON lines on standard output (and to a Unix socket), until SIGINT/SIGTERM.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon on a camera: events as JSON lines on standard output (and --socket).",
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

    @Option(help: "Also serve the events to local clients on this Unix socket path. Default: socket.path.")
    var socket: String?

    @Option(help: "Permissions of the socket file, octal. Default: socket.mode (0600).")
    var socketMode: String?

    @Option(help: "Also record the camera's frames into this new recording folder.")
    var record: String?

    mutating func run() throws {
        let configuration = try output.apply(to: options.load())
        var mode = mode_t(configuration.socketMode)
        if let socketMode {
            guard let parsed = mode_t(socketMode, radix: 8), parsed <= 0o777 else {
                throw ValidationError("--socket-mode must be octal permissions such as 0600")
            }
            mode = parsed
        }
        let chosen = try camera.apply(to: configuration.camera)
        let filter = try output.filter(configuration)
        let processor = try FrameProcessor(configuration: configuration)
        let opened = try Camera(settings: chosen.settings)
        defer { opened.close() }
        // A corrupt frame cannot claim more pixels than the camera was asked for.
        processor.limitFrameSize(width: opened.format.width, height: opened.format.height)
        Log.shared.info("capturing from \(chosen.device): \(opened.format)")

        let stdout = JSONLinesWriter(fileDescriptor: STDOUT_FILENO, filter: filter)
        let server = try (socket ?? configuration.socketPath).map { try SocketEventServer(path: $0, mode: mode, filter: filter) }
        defer { server?.close() }
        let sink = FanOutSink(primary: stdout, others: server.map { [$0] } ?? [])
        let recorder = try record.map { try RecordingWriter(directory: $0, info: opened.recordingInfo) }
        let pipeline = LivePipeline(processor: processor, sink: sink, statsInterval: configuration.statsInterval,
                                    upstreamDrops: { opened.droppedFrames })
        let signals = SignalWatcher { number in
            Log.shared.info("signal \(number): stopping")
            pipeline.stop()
            stdout.giveUp(after: ReplayCommand.shutdownWriteTimeout)
        }
        var source = LiveSource(camera: opened, reconnector: Reconnector(deadline: chosen.reconnectFor),
                                recorder: recorder, report: pipeline.report)
        defer { withExtendedLifetime(signals) {} }
        do {
            let summary = try pipeline.run(&source)
            try recorder?.finish()
            Log.shared.info("stopped: \(summary.processed) of \(summary.captured) frames processed, \(summary.dropped) dropped in the handoff, \(opened.droppedFrames) by the camera, \(summary.droppedLines) nose/frame lines dropped for a slow reader")
        } catch let error as EventsError where error.isBrokenPipe {
            try recorder?.finish()  // the reader went away: a normal end
        } catch EventsError.writeTimedOut {
            try recorder?.finish()
            Log.shared.warning("stopped by a signal; standard output is not being read, so the closing lines were not written")
        } catch {
            try? recorder?.finish()
            throw error
        }
    }
}

/// Writes every event to a primary sink (standard output), whose failure ends the run, and to
/// others (the socket server) that never fail.
private final class FanOutSink: EventSink {
    let primary: EventSink
    let others: [EventSink]

    init(primary: EventSink, others: [EventSink]) {
        self.primary = primary
        self.others = others
    }

    func write(_ event: Event) throws {
        for sink in others { try? sink.write(event) }
        try primary.write(event)
    }
}
