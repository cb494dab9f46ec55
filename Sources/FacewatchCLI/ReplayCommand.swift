import ArgumentParser
import Config
import Daemon
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
        discussion: """
            With --speed 0 (the default) every frame is processed, as fast as the machine allows (the next frames are decoded on a second thread), and the same \
            recording gives byte-identical output every time. With --speed N the frames arrive on the recording's \
            own clock, N times faster, through the same one-slot handoff as a live camera: frames that come while \
            the previous one is still being processed are dropped and counted, and `stats` lines report it.
            """
    )

    @Argument(help: "A recording folder (recording.json, frames.mjpeg, frames.jsonl).")
    var recording: String

    @Option(help: "0: every frame, as fast as possible; N ≥ 0.01: play at N× the recording's speed like a live camera.")
    var speed: Double = 0

    @Option(help: "Play the recording this many times over as one continuous stream (soak tests).")
    var loop = 1

    @Option(help: "Also write the frames with boxes, landmarks, eye/mouth state and events drawn to this MJPEG file (ffplay plays it).")
    var annotate: String?

    @OptionGroup var options: ConfigOptions
    @OptionGroup var output: OutputFlags
    @OptionGroup var broker: MQTTOptions

    func validate() throws {
        try PlaybackSpeed.validate(speed, zero: "every frame, as fast as possible")
        guard loop >= 1 else { throw ValidationError("--loop must be at least 1") }
    }

    /// Seconds a stalled reader may hold up the closing lines after SIGINT/SIGTERM.
    static let shutdownWriteTimeout = 1.0

    mutating func run() throws {
        let configuration = broker.apply(to: try output.apply(to: options.load()))
        let opened = try Recording(directory: recording)
        let processor = try FrameProcessor(configuration: configuration)
        Log.shared.info("replaying \(recording): \(opened.frames.count) frames, \(opened.info.width)×\(opened.info.height)")
        let filter = try output.filter(configuration)
        let writer = JSONLinesWriter(fileDescriptor: STDOUT_FILENO, filter: filter)
        let outputs = try Integrations(configuration: configuration, httpBind: nil, pageFilter: filter, filter: filter, logger: Log.shared)
        defer { _ = outputs.finish() }
        if speed > 0 {
            guard annotate == nil else { throw ValidationError("--annotate works with --speed 0 (every frame)") }
            try runLive(opened, processor: processor, writer: writer, outputs: outputs)
            return
        }
        // SIGINT/SIGTERM end the replay like the end of the recording: open tracks get
        // `face_lost`; a reader that stopped reading gets a second to take the closing lines.
        let signals = SignalWatcher { _ in writer.giveUp(after: Self.shutdownWriteTimeout) }
        defer { withExtendedLifetime(signals) {} }
        func frames() -> StoppableSource<RecordingSource> {
            StoppableSource(base: RecordingSource(recording: opened, loops: loop)) { signals.received }
        }
        // Without --annotate (which draws on the color JPEG) the next frames are decoded on
        // other threads (which then own the source) while the current one is processed.
        let decoders = DecodeAheadSource.decoders(width: opened.info.width, height: opened.info.height)
        var source: any FrameSource = annotate == nil ? DecodeAheadSource(frames(), conversion: configuration.gray, decoders: decoders) : frames()
        let total = opened.frames.count.multipliedReportingOverflow(by: loop)
        var progress = ProgressLine(total: total.overflow ? .max : total.partialValue, label: "replay")
        let annotator = try annotate.map { try FrameAnnotator(path: $0) }
        defer { annotator?.close() }
        let sink = FrameEventBuffer(forwardingTo: outputs.sink(primary: writer))
        do {
            let summary = try Replay.run(&source, processor: processor, problems: opened.problems, sink: sink) { result, done in
                try sink.drain { events in try annotator?.annotate(result.frame, faces: result.faces, events: events) }
                progress.update(done)
            }
            progress.finish()
            let rss = Double(ResidentMemory.current()) / 1_048_576
            Log.shared.info("resident memory \(String(format: "%.1f", rss)) MB")
            Log.shared.info("\(summary.frames) frames in \(String(format: "%.2f", summary.seconds)) s (\(String(format: "%.0f", Double(summary.frames) / max(summary.seconds, 1e-9))) FPS), \(summary.badFrames) bad, \(processor.detectorRuns) full-frame detections")
        } catch let error as EventsError where error.isBrokenPipe {
            progress.finish()  // the reader went away (`facewatch replay … | head`): a normal end
        } catch EventsError.writeTimedOut {
            progress.finish()
            Log.shared.warning("stopped by a signal; standard output is not being read, so the closing lines were not written")
        }
    }

    /// Plays the recording through the live pipeline at `speed`× its own clock.
    private func runLive(_ recording: Recording, processor: FrameProcessor, writer: JSONLinesWriter, outputs: Integrations) throws {
        let live = LiveRun(outputs: outputs, processor: processor, stdout: writer, statsInterval: 1,
                           giveUpAfter: Self.shutdownWriteTimeout)
        for problem in recording.problems {
            try outputs.sink(primary: writer).write(Event(t: 0, frame: 0, .error(message: problem, code: "recording")))
        }
        let pipeline = live.pipeline
        let source = PacedSource(RecordingSource(recording: recording, loops: loop), speed: speed) { pipeline.isStopping }
        switch try live.run(source) {
        case .finished(let summary):
            Log.shared.info("\(summary.processed) of \(summary.captured) frames processed, \(summary.dropped) dropped, resident memory \(String(format: "%.1f", Double(ResidentMemory.current()) / 1_048_576)) MB")
        case .readerGone:
            break  // the reader went away: a normal end
        case .writeTimedOut:
            Log.shared.warning("stopped by a signal; standard output is not being read, so the closing lines were not written")
        }
    }
}

/// Passes events on to a sink and keeps the current frame's, for the annotator.
private final class FrameEventBuffer: EventSink {
    private let next: EventSink
    private var events: [Event] = []

    init(forwardingTo next: EventSink) {
        self.next = next
    }

    func write(_ event: Event) throws {
        events.append(event)
        try next.write(event)
    }

    /// Hands `body` the events since the last call, then forgets them (keeping the storage, which
    /// `body` must not keep either).
    func drain(_ body: ([Event]) throws -> Void) rethrows {
        defer { events.removeAll(keepingCapacity: true) }
        try body(events)
    }
}
