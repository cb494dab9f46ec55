/// A percentile of the samples seen over the last `window` seconds, with fixed storage.
///
/// Samples live in a ring buffer of `capacity` entries, so adding a sample and asking for the
/// percentile never allocate. Old samples are dropped only when a newer one is added (older than
/// `window` seconds before it, or when the buffer is full), so the estimate survives stretches
/// without samples, e.g. while the eyes are closed.
public struct RunningPercentile: Sendable {
    /// How far back samples are kept, in seconds of `t`.
    public let window: Double
    /// The quantile reported by `value`, in 0...1 (0.9 = 90th percentile).
    public let quantile: Double

    private var times: [Double]
    private var values: [Double]
    private var scratch: [Double]
    private var head = 0  // index of the oldest sample
    public private(set) var count = 0

    /// - Parameters:
    ///   - window: seconds of samples to keep (> 0).
    ///   - quantile: 0...1; values outside are clamped.
    ///   - capacity: most samples kept (at least 1); size it for `window` × the highest frame rate.
    public init(window: Double, quantile: Double, capacity: Int) {
        self.window = window
        self.quantile = min(max(quantile, 0), 1)
        let n = max(1, capacity)
        times = [Double](repeating: 0, count: n)
        values = [Double](repeating: 0, count: n)
        scratch = [Double](repeating: 0, count: n)
    }

    /// Seconds between the oldest and the newest kept sample (0 when empty).
    public var span: Double {
        guard count > 0 else { return 0 }
        return times[(head + count - 1) % times.count] - times[head]
    }

    /// Adds a sample taken at `t` and drops those older than `t - window`.
    public mutating func add(_ value: Double, at t: Double) {
        let capacity = times.count
        while count > 0 && (times[head] < t - window || count == capacity) {
            head = (head + 1) % capacity
            count -= 1
        }
        let slot = (head + count) % capacity
        times[slot] = t
        values[slot] = value
        count += 1
    }

    /// Removes every sample.
    public mutating func removeAll() {
        head = 0
        count = 0
    }

    /// The quantile of the kept samples (nearest rank on the sorted samples); nil when empty.
    public mutating func value() -> Double? {
        guard count > 0 else { return nil }
        let capacity = values.count
        let n = count
        let k = Int((quantile * Double(n - 1)).rounded())
        let first = head
        return values.withUnsafeBufferPointer { src in
            scratch.withUnsafeMutableBufferPointer { buf in
                for i in 0..<n { buf[i] = src[(first + i) % capacity] }
                return quickselect(buf, count: n, k: k)
            }
        }
    }
}
