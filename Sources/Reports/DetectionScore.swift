import Pipeline
/// True/false positives and misses for one event type, with precision, recall and F1.
public struct DetectionScore: Sendable, Equatable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0

    public init(truePositives: Int = 0, falsePositives: Int = 0, falseNegatives: Int = 0) {
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
    }

    /// 1 when nothing was reported (nothing reported wrongly).
    public var precision: Double {
        truePositives + falsePositives == 0 ? 1 : Double(truePositives) / Double(truePositives + falsePositives)
    }

    /// 1 when there was nothing to find.
    public var recall: Double {
        truePositives + falseNegatives == 0 ? 1 : Double(truePositives) / Double(truePositives + falseNegatives)
    }

    /// Harmonic mean of precision and recall: 1 when there was nothing to find and nothing was reported.
    public var f1: Double {
        let denominator = 2 * truePositives + falsePositives + falseNegatives
        return denominator == 0 ? 1 : Double(2 * truePositives) / Double(denominator)
    }

    public static func + (a: DetectionScore, b: DetectionScore) -> DetectionScore {
        DetectionScore(truePositives: a.truePositives + b.truePositives, falsePositives: a.falsePositives + b.falsePositives,
                       falseNegatives: a.falseNegatives + b.falseNegatives)
    }

    /// Scores reported intervals of one type against the truth: each truth interval matches at
    /// most one reported interval that overlaps it or lies within `tolerance` seconds (0.25 s by
    /// default), earliest first.
    public static func score(reported: [LabeledInterval], truth: [LabeledInterval], tolerance: Double = 0.25) -> DetectionScore {
        let reported = reported.sorted { $0.start < $1.start }
        var used = [Bool](repeating: false, count: reported.count)
        var score = DetectionScore()
        for expected in truth.sorted(by: { $0.start < $1.start }) {
            if let index = reported.indices.first(where: { !used[$0] && reported[$0].matches(expected, tolerance: tolerance) }) {
                used[index] = true
                score.truePositives += 1
            } else {
                score.falseNegatives += 1
            }
        }
        score.falsePositives = used.filter { !$0 }.count
        return score
    }
}
