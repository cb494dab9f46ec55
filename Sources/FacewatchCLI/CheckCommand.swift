import ArgumentParser
import Capture
import Config
import Daemon
import Events
import FacewatchKit
import Foundation
import Identity
import Liveness
import Pipeline
import Recordings

/// `facewatch check`: active liveness by challenge and response, with prompts and a verdict as
/// JSON lines and the result in the exit status (0 pass, 1 fail, 2 error).
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Run a liveness check: prompt random steps (blink, smile, turn…), cue each response, print a verdict.",
        discussion: """
            Each step is a series of cued trials: hold still, then act at the cue ({"type":"cue",…}), inside the \
            cue's window (a human reaction time after it). Prompts ({"type":"prompt",…}), cues and the verdict \
            ({"type":"verdict","pass":…}) are JSON lines on standard output. Exit status: 0 pass, 1 fail (the \
            verdict's reason: timeout, early_response, unsteady_timing, flat_face, no_face, multiple_faces, face_lost, face_swapped, \
            too_small, too_dark, turned_away, stream_ended, identity_mismatch, identity_changed), 2 error (no camera, \
            bad config, missing model). With --identity NAME or --against \
            ID-PHOTO the tracked face must also be that person at the start, in every step and at the end \
            (`identity` lines, about 4 per second).
            """
    )

    @Option(help: "Check against a recording instead of a camera (tests and demos; use with --challenge).")
    var replay: String?

    @OptionGroup var camera: CameraOptions

    @Option(help: "The steps, comma-separated: blink, blink:2, smile, open_mouth, turn_left, turn_right, nod. Default: drawn at random.")
    var challenge: String?

    @Option(help: "Seed for the random challenge and the cue times (default: random; a replay with the same seed gives the same verdict).")
    var seed: UInt64?

    @Option(help: "Seconds a step waits for a usable, neutral face before each cue.")
    var stepTimeout: Double = 5

    @Option(help: "Also require the face to be this enrolled person (see `facewatch enroll`).")
    var identity: String?

    @Option(help: "Also require the face to be the person on this ID photo (JPEG).")
    var against: String?

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
        let seed = self.seed ?? UInt64.random(in: 0...UInt64.max)
        let steps = try challenge.map { try Challenge(parsing: $0) } ?? Challenge.random(seed: seed)
        guard stepTimeout > 0, stepTimeout <= 3600 else {
            throw ValidationError("--step-timeout must be more than 0 and at most 3600 seconds; got \(stepTimeout)")
        }
        var settings = CheckSettings()
        settings.stepTimeout = stepTimeout
        if identity != nil && against != nil { throw ValidationError("give --identity or --against, not both") }
        // The identity's model first: without it, the one error line names the setup script.
        let context = identity != nil || against != nil ? try IdentityContext(options: options) : nil
        let configuration = try context?.configuration ?? options.load()
        let processor = try context?.reader.processor ?? FrameProcessor(configuration: configuration)
        let reference = try context?.reference(name: identity, against: against)
        let check = LivenessCheck(challenge: steps, settings: settings, identity: reference?.name, seed: seed)
        let out = FileHandle.standardOutput
        let emit: (CheckOutput) -> Void = { out.write(Data($0.jsonLine.utf8)) }
        // Reads the tracked face's identity when the check asks for it.
        let read: (FrameResult) -> IdentityReading? = { result in
            let frame = result.frame
            guard let context, let reference, check.needsIdentity(t: frame.t), result.faces.count == 1,
                  let face = result.faces.first,
                  let descriptor = try? context.reader.describer.describe(frame, face: face) else { return nil }
            let match = reference.compare(descriptor, threshold: context.threshold)
            return IdentityReading(t: frame.t, frame: frame.index, face: face.id, name: reference.name,
                                   distance: match.distance, threshold: match.threshold)
        }
        guard let replay else {
            let opened = try Camera(settings: camera.apply(to: configuration.camera).settings)
            defer { opened.close() }
            var signals: SignalWatcher?
            try check.run(camera: opened, processor: processor, identity: read, emit: emit) { live in
                signals = SignalWatcher { _ in live.stop() }
            }
            withExtendedLifetime(signals) {}
            return check.verdict?.passed == true
        }
        var source = RecordingSource(recording: try Recording(directory: replay))
        try check.run(&source, processor: processor, identity: read, emit: emit)
        return check.verdict?.passed == true
    }
}
