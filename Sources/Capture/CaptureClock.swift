import Foundation

/// Time for capture: reading it and waiting. `Camera`, `EmulatedCamera` and `Reconnector` take
/// one so that tests can run on a virtual clock, without waiting.
public protocol CaptureClock: AnyObject {
    /// Seconds on a monotonic clock.
    func now() -> Double
    /// Waits `seconds` (nothing for zero or less).
    func sleep(_ seconds: Double)
}

/// CLOCK_MONOTONIC, the clock V4L2 drivers stamp their buffers with, and real sleeping.
public final class SystemClock: CaptureClock {
    public init() {}

    public func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    public func sleep(_ seconds: Double) {
        guard seconds > 0 else { return }
        var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
        var remaining = timespec()
        while nanosleep(&request, &remaining) != 0 && errno == EINTR {
            request = remaining
        }
    }
}
