/// Thresholds and timings of `BlinkDetector`. Times are seconds of stream time `t`, never frames,
/// so the detector behaves the same at 15, 30 or 60 fps and across dropped frames. Ratios are
/// fractions of the eye's learned open EAR. The defaults were chosen on the real recordings in
/// `Recordings/real` (leave-one-person-out figures in docs/blinks.md, "Measured on the recordings").
public struct BlinkSettings: Sendable, Equatable {
    /// Seconds of open-eye samples the open EAR is learned from (default 2 s: short enough to
    /// follow a face that widens its eyes or moves nearer, long enough to span several blinks).
    public var openWindow: Double = 2
    /// Percentile of those samples taken as the person's open EAR (default 0.9).
    public var openQuantile: Double = 0.9
    /// Seconds the learned samples must span before the learned open EAR is trusted (default 1 s).
    public var warmup: Double = 1
    /// Open EAR assumed until then (default 0.30, a typical adult open eye); when the samples seen
    /// so far are lower (narrow eyes, glasses), their percentile is used instead.
    public var fallbackOpen: Double = 0.30
    /// A closure episode starts when either eye drops below `closeRatio × open` (default 0.75);
    /// its start is the episode's start.
    public var closeRatio: Double = 0.75
    /// A blink or closure needs both eyes, and a wink its eye, to reach below `deepRatio × open`
    /// at some frame of the episode (default 0.65). Squints, smiling eyes and looking down narrow
    /// the eyes to about 0.75–0.95 × open on the real recordings and stay above it.
    public var deepRatio: Double = 0.65
    /// The episode ends on the first frame with both eyes above `reopenRatio × open` (default
    /// 0.8); that frame's `t` minus the start is the duration.
    public var reopenRatio: Double = 0.8
    /// An episode also ends when both eyes have stayed above `deepRatio × open` (though below
    /// `reopenRatio × open`) for this long (default 0.2 s); it then ends on the first such frame.
    public var settleTime: Double = 0.2
    /// A closure must also go below `1 − jitterFactor × jitter` (default 5), where `jitter` is the
    /// median frame-to-frame change of the eyes' ratios over the last `jitterWindow`: for noise
    /// alone that median is about σ, so the depth must stand about 5σ out of it. On a face the
    /// landmark model cannot hold still (a printed photo turned away, glasses, a blurred or
    /// crying face) the ratios swing by 0.1–0.2 from one frame to the next, and a one- or
    /// two-frame swing to 0.6 × open is not a blink; on a steady face (0.02–0.04 per frame)
    /// `deepRatio` stays the tighter limit. 0 turns the check off.
    public var jitterFactor: Double = 5
    /// Seconds of frame-to-frame changes the jitter is the median of (default 1).
    public var jitterWindow: Double = 1
    /// Shortest blink (default 0: a blink seen on one frame only, which real fast blinks at 30 fps
    /// are, counts; the depth in both eyes is what rejects landmark glitches).
    public var minDuration: Double = 0
    /// Longest blink (default 0.8 s; spontaneous blinks last 0.1–0.4 s, slow ones with a lazy
    /// reopening up to about 0.8 s). Longer closures are reported as `eyesClosed` start/end.
    public var maxDuration: Double = 0.8
    /// Shortest and longest wink (defaults 0.1 s and 1 s; winks are slower than blinks).
    public var winkMinDuration: Double = 0.1
    public var winkMaxDuration: Double = 1
    /// During a wink the other eye must stay above `winkOpenRatio × open` (default 0.7; a wink
    /// raises the cheek and narrows the other eye a little).
    public var winkOpenRatio: Double = 0.7
    /// An episode in which the eyes closed, reopened and closed again without passing
    /// `reopenRatio` is reported as separate blinks when, between two dips, the lower of the two
    /// ratios rose at least this fraction of the way from each dip back to open (default 0.5),
    /// and each dip went below the depth limit in both eyes. At one half the two dips' spans at
    /// half depth (the reported spans) do not touch: the lids came up past half open between
    /// them. 1 turns the split off.
    public var splitRise: Double = 0.5
    /// Detection is suspended while |yaw| exceeds this many degrees (default 45°: the EARs are
    /// corrected for the turn (`Foreshortening`) and blinks hold to 40°; the estimated yaw of a
    /// face held at 40° reads up to about 43°, so the margin keeps such a face watched. Beyond
    /// 45° the far eye's landmarks are unreliable).
    public var maxYaw: Double = 45
    /// A closure during which the head's yaw moves by more than this many degrees (default 12°)
    /// is the head turning, not the eyes closing: the turn changes both EARs faster than the
    /// open level follows, so it is dropped unless it was deep (`turnDeepRatio`).
    public var maxYawChange: Double = 12
    /// A closure during which the head turned more than `maxYawChange` still counts as a blink
    /// when both eyes went below this fraction of open (default 0.45): people often blink as
    /// they turn their head, and a turn alone does not close both eyes that far. Such a closure
    /// is never a wink or an eyes-closed interval.
    public var turnDeepRatio: Double = 0.45
    /// No wink is reported when the head was turned more than this many degrees during it
    /// (default 20°): the turn foreshortens one eye more than the other, so a one-eyed dip there
    /// is as likely the turn as a wink. Blinks (both eyes) still count up to `maxYaw`.
    public var winkMaxYaw: Double = 20
    /// A gap in `t` longer than this (default 0.3 s) between two frames means the eyes were not
    /// watched: the detector starts over as after a suspension.
    public var maxFrameGap: Double = 0.3
    /// Most samples kept for the open-EAR percentile (default 512: 2 s at up to 256 fps).
    public var sampleCapacity: Int = 512

    /// Whether `LearnedBlinks` adds the blinks this state machine misses (default true).
    public var learned = true

    public init() {}
}
