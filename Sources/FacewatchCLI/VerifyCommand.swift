import ArgumentParser
import FaceDescriptor
import Foundation
import Identity

/// `facewatch verify (NAME | --against ID-PHOTO) (IMAGE | --replay REC | --device D)`.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Is this face the enrolled NAME (or the person on --against ID-PHOTO)? Distance, threshold and verdict as JSON lines.",
        discussion: """
            A photo gives one `identity` line. A stream (--replay, --device) gives one line per good frame (frontal, \
            eyes open, sharp; --frames of them) and a final `verify` line with the median distance. Same person: \
            distance < identity.threshold (0.6). Exit status: 0 match, 1 no match, 2 error (no face, no model, \
            unknown name).
            """
    )

    @Argument(help: "The enrolled name to verify against (or use --against).")
    var name: String?

    @Argument(help: "A JPEG photo to verify (instead of --replay or --device).")
    var image: String?

    @Option(help: "An ID photo (JPEG) to verify against instead of an enrolled name.")
    var against: String?

    @Option(help: "Take frames from a recording folder.")
    var replay: String?

    @OptionGroup var camera: CameraOptions

    @Option(help: "How many good frames of a stream to compare.")
    var frames: Int = 3

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        guard (1...50).contains(frames) else { throw ValidationError("--frames must be 1…50") }
    }

    func run() throws {
        // With --against, the only positional argument is the photo to verify.
        let (name, image) = against != nil && self.image == nil ? (nil, self.name) : (self.name, self.image)
        guard (name != nil) != (against != nil) else { throw ValidationError("give a NAME or --against ID-PHOTO") }
        guard [image != nil, replay != nil, camera.device != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("give one of: IMAGE, --replay, --device")
        }
        try runIdentityCommand {
            let context = try IdentityContext(options: options)
            let reference = try context.reference(name: name, against: against)
            if let image {
                let match = reference.compare(try context.reader.describePhoto(try readFile(image), path: image),
                                              threshold: context.threshold)
                print(match.jsonLine(source: image), terminator: "")
                return match.match
            }
            var source = try context.openStream(replay: replay, camera: camera)
            let label = replay ?? context.configuration.camera.device
            let matches = try context.reader.sample(&source, count: frames).map { reference.compare($0, threshold: context.threshold) }
            for match in matches { print(match.jsonLine(source: label), terminator: "") }
            guard let verdict = IdentityMatch(medianOf: matches) else {
                throw IdentityError.face("\(label): no good frame of one face (frontal, eyes open, sharp)")
            }
            print(verdict.verifyLine(frames: matches.count), terminator: "")
            return verdict.match
        }
    }
}
