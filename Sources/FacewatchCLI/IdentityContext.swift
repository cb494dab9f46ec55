import ArgumentParser
import Capture
import Config
import Events
import FaceDescriptor
import FacewatchKit
import Foundation
import Identity
import Pipeline
import Recordings

/// What the identity commands share: the configuration, the store and (loaded first, so a
/// missing model is the one line reported) the descriptor network and a face reader.
struct IdentityContext {
    let configuration: Configuration
    let reader: FaceReader
    var threshold: Double { configuration.identityThreshold }

    init(options: ConfigOptions) throws {
        let network = try DescriptorNetwork()
        configuration = try options.load()
        reader = FaceReader(processor: try FrameProcessor(configuration: configuration), network: network)
    }

    var storePath: String { configuration.identityStore ?? IdentityStore.defaultPath() }

    func store() throws -> IdentityStore { try IdentityStore(path: storePath) }

    /// The reference a face is compared with: an enrolled name, or an ID photo.
    func reference(name: String?, against: String?) throws -> IdentityReference {
        switch (name, against) {
        case (let name?, nil):
            guard let identity = try store().identity(named: name) else { throw IdentityError.unknownName(name) }
            return IdentityReference(identity)
        case (nil, let photo?):
            return IdentityReference(name: photo, descriptors: [try reader.describePhoto(try readFile(photo), path: photo)])
        default:
            throw ValidationError("give a NAME or --against ID-PHOTO, not both")
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

/// One `identity` JSON line: the check's fields (`t`, `frame`, `face` for a stream frame), plus
/// the photo or recording described.
func identityLine(_ match: IdentityMatch, source: String, frame: (t: Double, index: Int, face: Int)? = nil) -> String {
    var out: [UInt8] = Array(#"{"type":"identity""#.utf8)
    if let frame {
        out += Array(#","t":"#.utf8)
        JSONNumber.append(frame.t, decimals: 3, to: &out)
        out += Array(",\"frame\":\(frame.index),\"face\":\(frame.face)".utf8)
    }
    out += Array(#","source":"#.utf8)
    JSONString.append(source, to: &out)
    out += Array(#","name":"#.utf8)
    JSONString.append(match.name, to: &out)
    out += Array(#","distance":"#.utf8)
    JSONNumber.append(match.distance, decimals: 4, to: &out)
    out += Array(#","threshold":"#.utf8)
    JSONNumber.append(match.threshold, decimals: 4, to: &out)
    out += Array(",\"match\":\(match.match)}\n".utf8)
    return String(decoding: out, as: UTF8.self)
}
