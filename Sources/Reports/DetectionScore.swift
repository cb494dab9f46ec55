import Pipeline
/// True/false positives and misses for one event type, with precision, recall and F1, and the
/// timing errors of the matched events.
public struct DetectionScore: Sendable, Equatable {
    public var truePositives = 0
    public var falsePositives = 0
    public var falseNegatives = 0
    /// For every matched pair: reported start minus truth start, in seconds.
    public var startErrors: [Double] = []
    /// For every matched pair: reported duration minus truth duration, in seconds.
    public var durationErrors: [Double] = []

    public init(truePositives: Int = 0, falsePositives: Int = 0, falseNegatives: Int = 0,
                startErrors: [Double] = [], durationErrors: [Double] = []) {
        self.truePositives = truePositives
        self.falsePositives = falsePositives
        self.falseNegatives = falseNegatives
        self.startErrors = startErrors
        self.durationErrors = durationErrors
    }

    /// Undefined (nil) when nothing was reported: there is nothing to be precise about.
    public var precision: Double? {
        truePositives + falsePositives == 0 ? nil : Double(truePositives) / Double(truePositives + falsePositives)
    }

    /// Undefined (nil) when there was nothing to find.
    public var recall: Double? {
        truePositives + falseNegatives == 0 ? nil : Double(truePositives) / Double(truePositives + falseNegatives)
    }

    /// Harmonic mean of precision and recall: 1 when there was nothing to find and nothing was
    /// reported, 0 when only one of the two is empty.
    public var f1: Double {
        let denominator = 2 * truePositives + falsePositives + falseNegatives
        return denominator == 0 ? 1 : Double(2 * truePositives) / Double(denominator)
    }

    /// Mean and 95th percentile of the absolute start errors (nil without matches).
    public var startError: ErrorSummary? { ErrorSummary(startErrors) }
    /// Mean and 95th percentile of the absolute duration errors (nil without matches).
    public var durationError: ErrorSummary? { ErrorSummary(durationErrors) }

    public static func + (a: DetectionScore, b: DetectionScore) -> DetectionScore {
        DetectionScore(truePositives: a.truePositives + b.truePositives, falsePositives: a.falsePositives + b.falsePositives,
                       falseNegatives: a.falseNegatives + b.falseNegatives, startErrors: a.startErrors + b.startErrors,
                       durationErrors: a.durationErrors + b.durationErrors)
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
                score.startErrors.append(reported[index].start - expected.start)
                score.durationErrors.append((reported[index].end - reported[index].start) - (expected.end - expected.start))
            } else {
                score.falseNegatives += 1
            }
        }
        score.falsePositives = used.filter { !$0 }.count
        return score
    }
}

/// Mean and 95th percentile (nearest rank) of the absolute values of some timing errors, in seconds.
public struct ErrorSummary: Sendable, Equatable {
    public var mean: Double
    public var p95: Double

    /// Nil for no errors.
    public init?(_ errors: [Double]) {
        guard !errors.isEmpty else { return nil }
        let sorted = errors.map(abs).sorted()
        mean = sorted.reduce(0, +) / Double(sorted.count)
        p95 = sorted[max(0, Int((0.95 * Double(sorted.count)).rounded(.up)) - 1)]
    }
}
