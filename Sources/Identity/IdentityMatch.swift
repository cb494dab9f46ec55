import FaceDescriptor

/// A descriptor compared with a reference: the distance, the threshold and the verdict
/// (`distance < threshold`, as dlib's examples decide "same person").
public struct IdentityMatch: Sendable, Equatable {
    /// The enrolled name, or the reference photo's path for `--against`.
    public var name: String
    public var distance: Double
    public var threshold: Double
    public var match: Bool { distance < threshold }

    public init(name: String, distance: Double, threshold: Double) {
        self.name = name
        self.distance = distance
        self.threshold = threshold
    }

    /// The match of the median distance of `matches` (the upper one of an even count), under
    /// the first one's name and threshold; nil for none.
    public init?(medianOf matches: [IdentityMatch]) {
        guard let first = matches.first else { return nil }
        let distances = matches.map(\.distance).sorted()
        self.init(name: first.name, distance: distances[distances.count / 2], threshold: first.threshold)
    }
}

/// Who a face is checked against: an enrolled identity or the descriptor of an ID photo.
public struct IdentityReference: Sendable, Equatable {
    public var name: String
    public var descriptors: [FaceDescriptor]

    public init(name: String, descriptors: [FaceDescriptor]) {
        self.name = name
        self.descriptors = descriptors
    }

    public init(_ identity: Identity) {
        self.init(name: identity.name, descriptors: identity.descriptors)
    }

    public func compare(_ descriptor: FaceDescriptor, threshold: Double) -> IdentityMatch {
        let distance = descriptors.map { $0.distance(to: descriptor) }.min() ?? .infinity
        return IdentityMatch(name: name, distance: distance, threshold: threshold)
    }
}
