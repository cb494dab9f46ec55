import Foundation

/// Mean and percentiles of a set of timing samples (milliseconds), for benchmarks and `stats` events.
public struct TimingSummary: Sendable, Equatable {
    public let count: Int
    public let mean: Double
    public let p50: Double
    public let p95: Double
    public let p99: Double

    /// Summarises samples; percentiles use the nearest-rank method. Empty input gives zeros.
    public init(_ samples: [Double]) {
        var sorted = samples
        self.init(sorting: &sorted)
    }

    /// Summarises `samples`, sorting them in place (no copy, so no allocation).
    public init(sorting samples: inout [Double]) {
        samples.sort()
        let sorted = samples
        count = sorted.count
        mean = sorted.isEmpty ? 0 : sorted.reduce(0, +) / Double(sorted.count)
        func rank(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let index = Int((q * Double(sorted.count)).rounded(.up)) - 1
            return sorted[min(max(index, 0), sorted.count - 1)]
        }
        p50 = rank(0.50)
        p95 = rank(0.95)
        p99 = rank(0.99)
    }

    public static let header = "      mean       p50       p95       p99  (ms)"

    public var row: String {
        String(format: "%10.4f%10.4f%10.4f%10.4f", mean, p50, p95, p99)
    }

    public var json: String {
        String(format: "{\"mean\": %.4f, \"p50\": %.4f, \"p95\": %.4f, \"p99\": %.4f}", mean, p50, p95, p99)
    }
}
