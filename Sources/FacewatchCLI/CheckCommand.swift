import ArgumentParser
import Capture
import Config
import Events
import Foundation
import Liveness
import Pipeline
import Recordings

/// `facewatch check`: active liveness by challenge and response, with prompts and a verdict as
/// JSON lines and the result in the exit status (0 pass, 1 fail, 2 error).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run a liveness check: prompt random steps (blink, smile, turn…), watch for them, print a verdict.",
        discussion: """
            Prompts ({"type":"prompt",…}) and the verdict ({"type":"verdict","pass":…}) are JSON lines on standard \
            output. Exit status: 0 pass, 1 fail (the verdict's reason: timeout, no_face, multiple_faces, face_lost, \
            face_swapped, out_of_order, too_small, too_dark, turned_away, stream_ended), 2 error (no camera, bad \
            config, missing model).
            """
    )

    @Option(help: "Check against a recording instead of a camera (tests and demos; use with --challenge).")
    var replay: String?

    @OptionGroup var camera: CameraOptions

    @Option(help: "The steps, comma-separated: blink, blink:2, smile, open_mouth, turn_left, turn_right, nod. Default: drawn at random.")
    var challenge: String?

    @Option(help: "Seed for the random challenge (default: random).")
    var seed: UInt64?

    @Option(help: "Seconds each step may take.")
    var stepTimeout: Double = 5

    @OptionGroup var options: ConfigOptions

    mutating func run() throws {
        let outcome: Bool
        do {
            outcome = try check()
        } catch {
            FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
            throw ExitCode(2)
        }
        if !outcome { throw ExitCode(1) }
    }

    /// Runs the check; true when it passed.
    private func check() throws -> Bool {
        let steps = try challenge.map { try Challenge(parsing: $0) } ?? Challenge.random(seed: seed ?? UInt64.random(in: 0...UInt64.max))
        guard stepTimeout > 0, stepTimeout.isFinite else { throw ValidationError("--step-timeout must be positive") }
        var settings = CheckSettings()
        settings.stepTimeout = stepTimeout
        let configuration = try options.load()
        let processor = try FrameProcessor(configuration: configuration)
        let check = LivenessCheck(challenge: steps, settings: settings)
        let out = FileHandle.standardOutput
        let emit: (CheckOutput) -> Void = { out.write(Data($0.jsonLine.utf8)) }
        guard let replay else {
            return try checkLive(check, camera: camera.apply(to: configuration.camera), processor: processor, emit: emit)
        }
        let recording = try Recording(directory: replay)
        var source = RecordingSource(recording: recording)
        var events: [Event] = []
        while check.verdict == nil {
            let frame: Frame
            do {
                guard let next = try source.nextFrame() else { break }
                frame = next
            } catch let error as FrameError {
                processor.skip(index: error.index, t: error.t, because: error.problem) { _ in }
                continue
            }
            events.removeAll(keepingCapacity: true)
            processor.process(frame) { events.append($0) }
            check.observe(frame: frame.index, t: frame.t, events: events, faces: processor.observations,
                          facesInView: processor.tracker.facesInView, emit: emit)
        }
        check.finish(emit: emit)
        return check.verdict?.passed == true
    }

    /// Runs the check on the camera through the live pipeline, until the verdict.
    private func checkLive(_ check: LivenessCheck, camera: CameraConfiguration, processor: FrameProcessor,
                           emit: @escaping (CheckOutput) -> Void) throws -> Bool {
        let opened = try Camera(settings: camera.settings)
        defer { opened.close() }
        processor.limitFrameSize(width: opened.format.width, height: opened.format.height)
        var pipeline: LivePipeline?
        let live = LivePipeline(processor: processor, sink: DiscardingSink(), afterFrame: { frame, events in
            check.observe(frame: frame.index, t: frame.t, events: events, faces: processor.observations,
                          facesInView: processor.tracker.facesInView, emit: emit)
            if check.verdict != nil { pipeline?.stop() }
        })
        pipeline = live
        let signals = SignalWatcher { _ in live.stop() }
        var source = LiveSource(camera: opened, reconnector: Reconnector(deadline: 0), recorder: nil) { _ in }
        defer { withExtendedLifetime(signals) {} }
        _ = try live.run(&source)
        check.finish(emit: emit)
        return check.verdict?.passed == true
    }
}

/// The check writes prompts and the verdict, not the event stream.
private final class DiscardingSink: EventSink {
    func write(_ event: Event) throws {}
}
