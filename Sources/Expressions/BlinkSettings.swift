/// Thresholds and timings of `BlinkDetector`. Times are seconds of stream time `t`, never frames,
/// so the detector behaves the same at 15, 30 or 60 fps and across dropped frames.
public struct BlinkSettings: Sendable, Equatable {
    /// Seconds of open-eye samples the open EAR is learned from (default 4 s).
    public var openWindow: Double = 4
    /// Percentile of those samples taken as the person's open EAR (default 0.9: robust to the
    /// closing and opening frames of blinks and to a few landmark glitches).
    public var openQuantile: Double = 0.9
    /// Seconds the learned samples must span before the learned open EAR is trusted (default 1 s).
    public var warmup: Double = 1
    /// Open EAR assumed until then (default 0.30, a typical adult open eye); when the samples seen
    /// so far are lower (narrow eyes, glasses), their percentile is used instead.
    public var fallbackOpen: Double = 0.30
    /// An eye closes when its EAR drops below `closeRatio × open` (default 0.63: 0.19 for a
    /// typical 0.30 eye; a 30 fps camera often catches a blink only part-way closed, so the
    /// threshold cannot be much lower; a squint or half-closure stays above it).
    public var closeRatio: Double = 0.63
    /// A closed eye opens again above `reopenRatio × open` (default 0.8: 0.24 for a 0.30 eye);
    /// the gap to `closeRatio` is the hysteresis that keeps jitter from splitting one closure.
    public var reopenRatio: Double = 0.8
    /// Shortest blink: from the first frame with the eyes closed to the first frame with both
    /// open again (default 0.05 s: at 30 fps a closure must be seen on at least two frames, which
    /// rejects one-frame landmark glitches; at 15 fps one closed frame is enough).
    public var minDuration: Double = 0.05
    /// Longest blink (default 0.5 s; spontaneous blinks last 0.1–0.4 s). Longer closures are
    /// reported as `eyesClosed` start/end instead.
    public var maxDuration: Double = 0.5
    /// How much later than the first eye the second may close and still make a blink (default
    /// 0.07 s; the next frame is always accepted, whatever the frame rate).
    public var maxEyeLag: Double = 0.07
    /// Shortest and longest wink (defaults 0.1 s and 1 s; winks are slower than blinks).
    public var winkMinDuration: Double = 0.1
    public var winkMaxDuration: Double = 1
    /// During a wink the other eye must stay above `winkOpenRatio × open` (default 0.7; a wink
    /// raises the cheek and narrows the other eye a little).
    public var winkOpenRatio: Double = 0.7
    /// Detection is suspended while |yaw| exceeds this many degrees (default 40°: the EARs are
    /// corrected for the turn (`Foreshortening`), but beyond about 40° the far eye's landmarks
    /// are unreliable).
    public var maxYaw: Double = 40
    /// A gap in `t` longer than this (default 0.3 s) between two frames means the eyes were not
    /// watched: the detector starts over as after a suspension.
    public var maxFrameGap: Double = 0.3
    /// Most samples kept for the open-EAR percentile (default 512: 4 s at up to 128 fps).
    public var sampleCapacity: Int = 512

    public init() {}
}
