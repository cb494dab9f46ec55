/// The shape of a loaded landmark model, logged at start-up and pinned in tests.
public struct ModelStructure: Equatable, Sendable, CustomStringConvertible {
    /// Cascade levels (dlib's `forests.size()`).
    public var cascades: Int
    /// Regression trees per cascade level.
    public var treesPerCascade: Int
    /// Leaves per tree (a power of two: 2^depth).
    public var leavesPerTree: Int
    /// Pixel features sampled per cascade level (`anchor_idx[0].size()`).
    public var featuresPerCascade: Int
    /// Landmarks per face.
    public var landmarks: Int

    public init(cascades: Int, treesPerCascade: Int, leavesPerTree: Int, featuresPerCascade: Int, landmarks: Int) {
        self.cascades = cascades
        self.treesPerCascade = treesPerCascade
        self.leavesPerTree = leavesPerTree
        self.featuresPerCascade = featuresPerCascade
        self.landmarks = landmarks
    }

    public var description: String {
        "\(cascades) cascades × \(treesPerCascade) trees × \(leavesPerTree) leaves, "
            + "\(featuresPerCascade) features per cascade, \(landmarks) landmarks"
    }
}
