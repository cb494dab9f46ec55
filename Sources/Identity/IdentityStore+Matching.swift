import FaceDescriptor

extension IdentityStore {
    /// The first identity enrolled under another name than `name` whose face `descriptors`
    /// show (their nearest distance to it below `threshold`), with that distance; nil when there
    /// is none (`facewatch enroll` refuses such a face unless forced).
    public func enrolledElsewhere(_ descriptors: [FaceDescriptor], name: String, threshold: Double) -> IdentityMatch? {
        for other in identities where other.name != name {
            let distance = descriptors.map { IdentityReference(other).compare($0, threshold: threshold).distance }.min() ?? .infinity
            if distance < threshold { return IdentityMatch(name: other.name, distance: distance, threshold: threshold) }
        }
        return nil
    }
}
