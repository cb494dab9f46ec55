import ArgumentParser
import Capture
import FaceDescriptor
import FacewatchKit
import Foundation
import Identity
import Recordings

extension IdentityContext {
    /// The context of the command's options, the descriptor network loaded first (so a missing
    /// model is the one line reported).
    init(options: ConfigOptions) throws {
        let network = try DescriptorNetwork()
        try self.init(network: network, configuration: options.load())
    }

    /// The reference a face is compared with: an enrolled name, or an ID photo.
    func reference(name: String?, against: String?) throws -> IdentityReference {
        switch (name, against) {
        case (let name?, nil): return try reference(named: name)
        case (nil, let photo?): return try reference(photo: try readFile(photo), path: photo)
        default: throw ValidationError("give a NAME or --against ID-PHOTO, not both")
        }
    }

    /// Frames from a recording or a camera (the config's camera with `camera`'s overrides).
    func openStream(replay: String?, camera: CameraOptions) throws -> any FrameSource {
        if let replay { return RecordingSource(recording: try Recording(directory: replay)) }
        return try Camera(settings: camera.apply(to: configuration.camera).settings)
    }
}

/// Runs an identity command body: errors are one line on standard error and exit status 2;
/// the body's false is exit status 1.
func runIdentityCommand(_ body: () throws -> Bool) throws {
    let passed: Bool
    do {
        passed = try body()
    } catch let error as ValidationError {
        throw error
    } catch {
        FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
        throw ExitCode(2)
    }
    if !passed { throw ExitCode(1) }
}
