/// Retries an operation, typically `Camera.reopen()` after `CameraError.disconnected`, with
/// exponential backoff until it succeeds or a deadline passes. The clock is injectable so tests
/// do not wait.
public struct Reconnector {
    /// The first wait after a failed attempt, in seconds.
    public var initialDelay: Double
    /// The longest wait between attempts; waits double up to it.
    public var maxDelay: Double
    /// Seconds after the first attempt to give up; nil retries for ever.
    public var deadline: Double?
    public let clock: any CaptureClock

    public init(initialDelay: Double = 0.25, maxDelay: Double = 4, deadline: Double? = 60,
                clock: any CaptureClock = SystemClock()) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.deadline = deadline
        self.clock = clock
    }

    /// Calls `attempt` until it does not throw, waiting between failures; `onFailure` hears of
    /// each failure and the wait before the next try. Returns the number of attempts made.
    /// Waits are cut short so that one attempt is made at the deadline itself; throws
    /// `CameraError.gaveUp` naming `device` when that one fails too (never before the deadline).
    @discardableResult
    public func run(device: String, attempt: () throws -> Void,
                    onFailure: (_ error: Error, _ retryIn: Double) -> Void = { _, _ in }) throws -> Int {
        let started = clock.now()
        var delay = initialDelay
        var attempts = 0
        while true {
            attempts += 1
            do {
                try attempt()
                return attempts
            } catch {
                let elapsed = clock.now() - started
                var wait = delay
                if let deadline {
                    if elapsed >= deadline {
                        throw CameraError.gaveUp(device: device, seconds: elapsed, lastError: "\(error)")
                    }
                    wait = min(delay, deadline - elapsed)
                }
                onFailure(error, wait)
                clock.sleep(wait)
                delay = min(delay * 2, maxDelay)
            }
        }
    }
}
