import Foundation

/// The learned half of blink detection: small gradient-boosted trees that tell a blink from other
/// narrowings of the eyes (squints, laughter, looking down, landmark jitter) by the shape of one
/// eye-narrowing episode that `BlinkEpisodes` found.
///
/// Its features, in order (`featureCount` of them), are each eye's EAR as a share of its open
/// level at 13 moments 0.05 s apart centred on the episode's lowest frame (left eye, then
/// right), the episode's depth (1 − the lowest ratio of both eyes' mean, of the left eye, of the
/// right eye), its length in seconds, and the mean ratio over the 0.3 s before it. The
/// probability is the logistic of `initial + learningRate ×` the sum of the trees' leaves; a
/// blink is `probability ≥ threshold`. The trees compare the features as 32-bit floats, as
/// scikit-learn, which trains them (`Scripts/train_blink_model.py`), does. `standard` is trained
/// on the real-face corpus.
///
/// The trees are stored as scikit-learn's node arrays, concatenated: node `n` of the model is a
/// leaf when `feature[n]` is negative (its value is `value[n]`), else it goes to `left[n]` when
/// the feature is at most `split[n]` and to `right[n]` otherwise; tree `k` starts at `roots[k]`.
public struct BlinkModel: Sendable, Equatable {
    /// How many features a candidate has.
    public static let featureCount = BlinkCandidate.Features.count

    public let initial: Double
    public let learningRate: Double
    public let roots: [Int]
    public let feature: [Int]
    public let split: [Double]
    public let left: [Int]
    public let right: [Int]
    public let value: [Double]
    public let threshold: Double

    /// - Precondition: the node arrays have one length; every root, and every inner node's
    ///   children, are nodes; every inner node's feature is below `featureCount`; every path
    ///   from a root reaches a leaf (children come after their parent).
    public init(initial: Double, learningRate: Double, roots: [Int], feature: [Int], split: [Double], left: [Int],
                right: [Int], value: [Double], threshold: Double) {
        let n = feature.count
        precondition(split.count == n && left.count == n && right.count == n && value.count == n,
                     "a blink model's node arrays have one length")
        precondition(roots.allSatisfy { (0..<n).contains($0) }, "a blink model's roots are nodes")
        for i in 0..<n where feature[i] >= 0 {
            precondition(feature[i] < Self.featureCount, "a blink model has \(Self.featureCount) features")
            precondition(left[i] > i && left[i] < n && right[i] > i && right[i] < n,
                         "a blink model's children are later nodes")
        }
        self.initial = initial
        self.learningRate = learningRate
        self.roots = roots
        self.feature = feature
        self.split = split
        self.left = left
        self.right = right
        self.value = value
        self.threshold = threshold
    }

    /// The probability that a candidate with these features is a blink.
    public func probability(of features: BlinkCandidate.Features) -> Double {
        var raw = initial
        for root in roots {
            var node = root
            while feature[node] >= 0 {
                node = Double(Float(features[feature[node]])) <= split[node] ? left[node] : right[node]
            }
            raw += learningRate * value[node]
        }
        return 1 / (1 + exp(-raw))
    }
}
