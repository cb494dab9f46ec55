import ArgumentParser
import Events
import FaceDescriptor
import Foundation
import Identity
import Liveness

/// `facewatch enroll NAME (IMAGE… | --replay REC | --device D)`: stores the descriptors of good
/// frames of one face under NAME.
struct EnrollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enroll",
        abstract: "Enroll a person: store the face descriptors of several good frames (or photos) under NAME.",
        discussion: """
            Good frames are frontal, with open eyes and sharp. Only descriptors are stored (config identity.store), \
            never images. A face already enrolled under another name is refused unless --force. With --live, the \
            frames come from a liveness check that must pass, so a photo cannot be enrolled. \
            Exit status: 0 enrolled, 1 not enrolled (no good frames, liveness failed, already enrolled), 2 error.
            """
    )

    @Argument(help: "The name to enroll (letters, digits, . _ - @).")
    var name: String

    @Argument(help: "JPEG photos of the person (instead of --replay or --device).")
    var images: [String] = []

    @Option(help: "Take frames from a recording folder.")
    var replay: String?

    @OptionGroup var camera: CameraOptions

    @Option(help: "How many good frames to store from a stream.")
    var frames: Int = 5

    @Flag(help: "Enroll even if the face is already enrolled under another name.")
    var force = false

    @Flag(help: "Require a passed liveness challenge on the stream; the stored frames come from that check.")
    var live = false

    @Option(help: "The --live challenge steps (default: drawn at random), as for `facewatch check`.")
    var challenge: String?

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        guard Identity.isValidName(name) else { throw ValidationError("\(IdentityError.invalidName(name))") }
        let streams = (replay != nil ? 1 : 0) + (camera.device != nil ? 1 : 0)
        guard (images.isEmpty ? 0 : 1) + streams <= 1 else { throw ValidationError("give IMAGE files, --replay or --device, one of them") }
        guard (1...50).contains(frames) else { throw ValidationError("--frames must be 1…50") }
        if live, !images.isEmpty { throw ValidationError("--live needs a stream (--replay or --device), not photos") }
    }

    func run() throws {
        try runIdentityCommand {
            let context = try IdentityContext(options: options)
            var store = try context.store()
            let descriptors: [FaceDescriptor]
            if !images.isEmpty {
                descriptors = try images.map { try context.reader.describePhoto(try readFile($0), path: $0, checkQuality: true) }
            } else if live {
                guard let sampled = try liveSample(context) else { return false }
                descriptors = sampled
            } else {
                var source = try context.openStream(replay: replay, camera: camera)
                descriptors = try context.reader.sample(&source, count: frames)
                guard descriptors.count == frames else {
                    FileHandle.standardError.write(Data("Not enrolled: only \(descriptors.count) of \(frames) good frames (frontal, eyes open, sharp)\n".utf8))
                    return false
                }
            }
            if !force, let other = store.enrolledElsewhere(descriptors, name: name, threshold: context.threshold) {
                FileHandle.standardError.write(Data("Not enrolled: \(IdentityError.alreadyEnrolled(name: other.name, distance: other.distance))\n".utf8))
                return false
            }
            let identity = Identity(name: name, enrolledAt: Date().timeIntervalSince1970, descriptors: descriptors)
            try store.enroll(identity)
            print(identity.enrolledLine(store: context.storePath), terminator: "")
            return true
        }
    }

    /// The frames of a passed liveness check, or nil (with the check's lines printed) when it failed.
    private func liveSample(_ context: IdentityContext) throws -> [FaceDescriptor]? {
        let seed = UInt64.random(in: 0...UInt64.max)
        let steps = try challenge.map { try Challenge(parsing: $0) } ?? Challenge.random(seed: seed)
        let check = LivenessCheck(challenge: steps, seed: seed)
        var source = try context.openStream(replay: replay, camera: camera)
        let emit: (CheckOutput) -> Void = { FileHandle.standardOutput.write(Data($0.jsonLine.utf8)) }
        // Sample good frames of the checked face while the check runs, until its verdict.
        let sampled = try context.reader.sample(&source, count: Int.max) { result, events in
            check.observe(frame: result.index, t: result.t, events: events, faces: result.faces,
                          facesInView: result.facesInView, emit: emit)
            return check.verdict == nil
        }
        if check.verdict == nil { check.finish(emit: emit) }
        guard check.verdict?.passed == true else { return nil }
        guard !sampled.isEmpty else {
            FileHandle.standardError.write(Data("Not enrolled: no good frame (frontal, eyes open, sharp) during the check\n".utf8))
            return nil
        }
        return Array(sampled.suffix(frames))
    }
}
