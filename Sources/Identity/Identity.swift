import FaceDescriptor
import Foundation

/// One enrolled person: a name and the descriptors of the frames or photos taken at enrolment.
/// Only descriptors are kept, never images.
public struct Identity: Sendable, Equatable, Codable {
    public var name: String
    /// When the identity was enrolled (seconds since 1970, UTC).
    public var enrolledAt: Double
    public var descriptors: [FaceDescriptor]

    public init(name: String, enrolledAt: Double, descriptors: [FaceDescriptor]) {
        self.name = name
        self.enrolledAt = enrolledAt
        self.descriptors = descriptors
    }

    /// Names are 1–64 characters of letters, digits, '.', '_', '-', '@'.
    public static func isValidName(_ name: String) -> Bool {
        guard (1...64).contains(name.count) else { return false }
        return name.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) || "._-@".unicodeScalars.contains($0) }
    }
}
