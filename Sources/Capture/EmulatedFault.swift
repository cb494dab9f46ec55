/// A fault an `EmulatedCamera` injects, to exercise what real cameras and drivers do.
/// Times are seconds on the camera's clock since the scene started (the first STREAMON).
public enum EmulatedFault: Sendable, Equatable {
    /// The next `count` VIDIOC_DQBUF calls fail with EAGAIN, even when poll said a buffer was ready.
    case spuriousAgain(count: Int)
    /// The next `count` poll and VIDIOC_DQBUF calls fail with EINTR, as after a signal.
    case interrupted(count: Int)
    /// No frames arrive from `at` for `seconds` (a covered lens on some drivers, a USB hiccup):
    /// poll times out.
    case stall(at: Double, seconds: Double)
    /// Frame number `frame` (counted from the camera's start, across loops) arrives cut to its
    /// first `keep` bytes: a short or truncated frame.
    case truncated(frame: Int, keep: Int)
    /// The camera is unplugged at `at`: calls on open nodes fail with ENODEV and opening fails
    /// with ENOENT until it is plugged back `back` seconds later (nil: never). Nodes opened
    /// before the unplug stay dead.
    case unplug(at: Double, back: Double?)
}
