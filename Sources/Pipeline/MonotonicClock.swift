import Foundation

/// Monotonic time in seconds (CLOCK_MONOTONIC), for measuring latencies and stage times.
public enum MonotonicClock {
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
