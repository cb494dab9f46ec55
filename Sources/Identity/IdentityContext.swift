import Config
import FaceDescriptor
import Foundation
import Pipeline

/// What the identity commands (`enroll`, `verify`, `check --identity`) share: the
/// configuration, the enrolment store and a face reader with its descriptor network.
public struct IdentityContext {
    public let configuration: Configuration
    public let reader: FaceReader
    /// The distance below which two faces are the same person (`identity.threshold`).
    public var threshold: Double { configuration.identityThreshold }

    /// A reader of `network`'s descriptors on a processor of `configuration`.
    public init(network: DescriptorNetwork, configuration: Configuration) throws {
        self.configuration = configuration
        reader = FaceReader(processor: try FrameProcessor(configuration: configuration), network: network)
    }

    /// The store's file: `identity.store`, or the default place.
    public var storePath: String { configuration.identityStore ?? IdentityStore.defaultPath() }

    public func store() throws -> IdentityStore { try IdentityStore(path: storePath) }

    /// The reference of an enrolled name.
    public func reference(named name: String) throws -> IdentityReference {
        guard let identity = try store().identity(named: name) else { throw IdentityError.unknownName(name) }
        return IdentityReference(identity)
    }

    /// The reference of an ID photo's face (the JPEG `photo`, read from `path`).
    public func reference(photo: Data, path: String) throws -> IdentityReference {
        IdentityReference(name: path, descriptors: [try reader.describePhoto(photo, path: path)])
    }
}
