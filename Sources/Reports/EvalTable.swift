import Foundation

/// The text table of `facewatch eval`: counts, precision/recall/F1 ("undefined" when there was
/// nothing reported or nothing to find) and the timing errors of matched events in milliseconds.
public struct EvalTable {
    public let header = "recording".padding(toLength: 28, withPad: " ", startingAt: 0)
        + "type".padding(toLength: 12, withPad: " ", startingAt: 0)
        + "   TP   FP   FN  precision     recall     F1   start ms mean/p95   duration ms mean/p95"

    /// A line under the header's width.
    public var rule: String { String(repeating: "-", count: header.count) }

    public init() {}

    /// One row: `name` (a recording, a person, or all), the event type and its score.
    public func row(_ name: String, _ type: String, _ s: DetectionScore) -> String {
        func ratio(_ v: Double?) -> String { v.map { String(format: "%.3f", $0) } ?? "undefined" }
        func timing(_ e: ErrorSummary?) -> String { e.map { String(format: "%.0f/%.0f", $0.mean * 1000, $0.p95 * 1000) } ?? "-" }
        return name.padding(toLength: 28, withPad: " ", startingAt: 0) + type.padding(toLength: 12, withPad: " ", startingAt: 0)
            + String(format: "%5d%5d%5d", s.truePositives, s.falsePositives, s.falseNegatives)
            + ratio(s.precision).leftPadded(11) + ratio(s.recall).leftPadded(11) + String(format: "%7.3f", s.f1)
            + timing(s.startError).leftPadded(20) + timing(s.durationError).leftPadded(23)
    }
}

private extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? " " + self : String(repeating: " ", count: width - count) + self
    }
}
