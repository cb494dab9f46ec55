/// The blink, wink and long-closure state machine of one face.
///
/// Feed it every frame of the face, in order of `t`. Each eye's EAR is read as a fraction of
/// that eye's own open EAR, learned as a running percentile of its recent samples outside
/// closures (`BlinkSettings.openWindow`, `openQuantile`), so narrow eyes, wide-open eyes, glasses
/// and a face moving nearer need no tuning. Until `warmup` seconds have been learned the open EAR
/// is `fallbackOpen`, or what has been seen so far when that is lower.
///
/// The detector looks at the shape of each closure over time, not at single frames:
/// - an **episode** starts on the first frame where either eye drops below `closeRatio × open`
///   and ends on the first frame where both are above `reopenRatio × open` again. The eyes may
///   close and reopen at different moments (a staggered blink): only the episode as a whole
///   counts;
/// - its **depth** is how far each eye went down: a blink or a closure needs both eyes below
///   `deepRatio × open` at some frame, a wink one eye while the other stayed above
///   `winkOpenRatio × open`. Squints, smiling eyes and looking down narrow the eyes less deeply
///   and produce nothing. Where the landmarks jitter, the depth must also stand out of the
///   jitter: below `1 − jitterFactor ×` the median frame-to-frame change of the ratios;
/// - a **slow reopening** that levels off below `reopenRatio` (eyes that were wide open before
///   the closure and open normally after it) ends the episode too: when both eyes have stayed
///   above `deepRatio × open` for `settleTime`, the episode ends on the first of those frames,
///   and is reported `settleTime` later;
/// - its **length** sorts it: up to `maxDuration` it is a **blink** (from a single frame on: a
///   fast blink at 30 fps may show on one frame only); longer, an **eyes-closed** interval whose
///   `.start` is reported on the frame that passes `maxDuration` and whose `.end` comes when the
///   eyes open again; a one-eyed closure of `winkMinDuration...winkMaxDuration` is a **wink**.
///
/// Decisions for the awkward cases:
/// - **Start of tracking**: the detector is armed only after a frame with both eyes open, so eyes
///   already closed when tracking starts (or resumes) produce nothing when they open: a closing
///   that was not seen is not a blink. The same applies after every suspension.
/// - **Suspension**: while the face is not tracked, |yaw| > `maxYaw`, or an EAR is not finite,
///   nothing is detected and a half-finished episode is dropped, so it cannot complete later. An
///   `eyesClosed` interval that had started is ended at the last frame it was observed, so every
///   `.start` has an `.end`. Losing the track also forgets the learned open EAR; a turned head
///   only pauses learning.
/// - **Turning heads**: an episode during which the yaw moves by more than `maxYawChange` is a
///   turn, not a closure, unless both eyes went below `turnDeepRatio × open`: people often blink
///   as they turn, and that is reported as a blink (never a wink or an eyes-closed interval). A
///   reported eyes-closed interval ends when such a turn starts. A one-eyed closure with the head
///   turned beyond `winkMaxYaw` is not a wink (the turn narrows one eye more than the other).
/// - **Dropped frames**: durations come from `t`, so a blink whose closed frames arrived between
///   gaps is measured correctly; a gap longer than `maxFrameGap` is treated as a suspension.
/// - **Blinks in quick succession** whose eyes do not reopen past `reopenRatio` in between are one
///   episode, reported once.
public struct BlinkDetector: Sendable {
    public let settings: BlinkSettings

    private var left: EyeState
    private var right: EyeState
    private var armed = false
    private var episode: Episode?
    private var lastT: Double?
    private var lastObservedT: Double?
    /// The current episode's frames: `t` and the lower of the two eyes' ratios (storage reused).
    private var trace: [Sample] = []
    /// Frame-to-frame changes of the eyes' ratios (the mean of both eyes' absolute change), over
    /// the last `jitterWindow`, and the previous watched frame's ratios.
    private var jitter: RunningPercentile
    private var previousRatios: (left: Double, right: Double)?

    private struct Sample {
        var t: Double
        var ratio: Double
    }

    private struct Episode {
        var start: Double
        /// The range of yaw seen during the episode.
        var yawLow: Double
        var yawHigh: Double
        /// The lowest ratio each eye reached.
        var leftLowest: Double
        var rightLowest: Double
        var longReported = false
        /// Since when both eyes have been above `deepRatio × open` (nil: not now).
        var settledSince: Double?

        func deep(below limit: Double) -> (left: Bool, right: Bool) {
            (leftLowest < limit, rightLowest < limit)
        }

        /// Whether the yaw moved more than `maxYawChange` during the episode (a head turn).
        func turned(_ s: BlinkSettings) -> Bool {
            yawHigh - yawLow > s.maxYawChange
        }
    }

    public init(settings: BlinkSettings = BlinkSettings()) {
        self.settings = settings
        left = EyeState(settings: settings)
        right = EyeState(settings: settings)
        jitter = RunningPercentile(window: settings.jitterWindow, quantile: 0.5, capacity: settings.sampleCapacity)
        trace.reserveCapacity(settings.sampleCapacity)
    }

    /// The ratio both eyes must go below for a closure: `deepRatio`, or lower where the ratios
    /// jitter (`jitterFactor`).
    private mutating func depthLimit() -> Double {
        min(settings.deepRatio, 1 - settings.jitterFactor * (jitter.value() ?? 0))
    }

    /// The open EAR the eye's thresholds were relative to on the last frame.
    public func openEAR(of eye: Eye) -> Double {
        eye == .left ? left.open : right.open
    }

    /// True when the last frame was watched (tracked, head not turned too far) and the detector
    /// had seen both eyes open since the last suspension, i.e. a closure now would count.
    public var isArmed: Bool { armed }

    /// Processes one frame of the face.
    /// - Parameters:
    ///   - t: stream time in seconds; tracked frames with a `t` not after the previous one are
    ///     ignored (an untracked one always takes effect).
    ///   - earLeft, earRight: EAR of the person's left and right eye.
    ///   - yaw: head yaw in degrees.
    ///   - tracked: false when the face was not found in this frame.
    ///   - emit: receives the events this frame completes.
    public mutating func update(
        t: Double, earLeft: Double, earRight: Double, yaw: Double, tracked: Bool,
        emit: (ExpressionEvent) -> Void
    ) {
        guard tracked else {
            suspend(emit: emit)
            left.forget(settings: settings)
            right.forget(settings: settings)
            jitter.removeAll()
            lastT = max(lastT ?? t, t)
            return
        }
        if let last = lastT {
            guard t > last else { return }
            if t - last > settings.maxFrameGap { suspend(emit: emit) }
        }
        lastT = t
        guard earLeft.isFinite, earRight.isFinite, yaw.isFinite, abs(yaw) <= settings.maxYaw else {
            suspend(emit: emit)
            return
        }
        lastObservedT = t
        left.step(ear: earLeft, t: t, settings: settings)
        right.step(ear: earRight, t: t, settings: settings)
        if let previous = previousRatios {
            jitter.add((abs(left.ratio - previous.left) + abs(right.ratio - previous.right)) / 2, at: t)
        }
        previousRatios = (left.ratio, right.ratio)
        let s = settings
        let reopened = left.ratio >= s.reopenRatio && right.ratio >= s.reopenRatio

        if episode == nil, armed, min(left.ratio, right.ratio) < s.closeRatio {
            episode = Episode(start: t, yawLow: yaw, yawHigh: yaw, leftLowest: left.ratio, rightLowest: right.ratio)
            trace.removeAll(keepingCapacity: true)
        }
        guard var e = episode else {
            left.learn(ear: earLeft, t: t, armed: armed, settings: s)
            right.learn(ear: earRight, t: t, armed: armed, settings: s)
            if !armed { armed = reopened }
            return
        }
        e.yawLow = min(e.yawLow, yaw)
        e.yawHigh = max(e.yawHigh, yaw)
        if e.turned(s) && e.longReported {
            suspend(emit: emit)
            return
        }
        e.leftLowest = min(e.leftLowest, left.ratio)
        e.rightLowest = min(e.rightLowest, right.ratio)
        if trace.count < settings.sampleCapacity { trace.append(Sample(t: t, ratio: min(left.ratio, right.ratio))) }
        if reopened {
            finish(e, at: t, emit: emit)
            episode = nil
            return
        }
        if left.ratio >= s.deepRatio && right.ratio >= s.deepRatio {
            let since = e.settledSince ?? t
            e.settledSince = since
            if t - since >= s.settleTime {
                // Open again, at a lower level than before (the eyes were wide open before it).
                finish(e, at: since, emit: emit)
                episode = nil
                return
            }
        } else {
            e.settledSince = nil
        }
        let deep = e.deep(below: depthLimit())
        if deep.left && deep.right && !e.longReported && !e.turned(s) && t - e.start > s.maxDuration {
            e.longReported = true
            emit(.eyesClosed(.start, start: e.start, duration: t - e.start))
        }
        episode = e
    }

    /// Forgets everything, including the learned open EAR, as for a new face.
    public mutating func reset() {
        self = BlinkDetector(settings: settings)
    }

    /// Reports the finished episode (which ends at `t`). It is sorted by its whole length, but a
    /// blink or wink is reported with its span at half depth: from the first frame where the
    /// closing eye is more than half way from open (ratio 1) to the lowest ratio it reaches, to
    /// the first frame after the last such frame. The episode's own edges are shallow thresholds
    /// (`closeRatio`, `reopenRatio`) that a slow start or reopening stretches.
    private mutating func finish(_ e: Episode, at t: Double, emit: (ExpressionEvent) -> Void) {
        let s = settings, duration = t - e.start, deep = e.deep(below: depthLimit())
        let (start, span) = halfDepthSpan(of: e, endingAt: t)
        if e.longReported {
            emit(.eyesClosed(.end, start: e.start, duration: duration))
        } else if e.turned(s) || (deep.left && deep.right) {
            // During a head turn only a closure of both eyes below `turnDeepRatio` is a blink,
            // and nothing else is reported.
            let closed = !e.turned(s) || (e.leftLowest < s.turnDeepRatio && e.rightLowest < s.turnDeepRatio)
            if closed && duration >= s.minDuration && duration <= s.maxDuration {
                emit(.blink(start: start, duration: span))
            }
        } else if duration >= s.winkMinDuration && duration <= s.winkMaxDuration,
                  max(abs(e.yawLow), abs(e.yawHigh)) <= s.winkMaxYaw {
            if deep.left && e.rightLowest > s.winkOpenRatio {
                emit(.wink(eye: .left, start: start, duration: span))
            } else if deep.right && e.leftLowest > s.winkOpenRatio {
                emit(.wink(eye: .right, start: start, duration: span))
            }
        }
    }

    /// The start and length of the episode's frames below half its depth (see `finish`); the
    /// whole episode when none of its frames were kept.
    private func halfDepthSpan(of e: Episode, endingAt end: Double) -> (start: Double, duration: Double) {
        let level = (1 + min(e.leftLowest, e.rightLowest)) / 2
        let frames = trace.prefix { $0.t < end }
        guard let first = frames.firstIndex(where: { $0.ratio < level }),
              let last = frames.lastIndex(where: { $0.ratio < level }) else {
            return (e.start, end - e.start)
        }
        let after = last + 1 < frames.endIndex ? frames[last + 1].t : end
        return (frames[first].t, after - frames[first].t)
    }

    /// Stops watching: drops a half-finished episode (ending a reported long closure at the last
    /// frame it was seen) and disarms until both eyes are seen open again.
    private mutating func suspend(emit: (ExpressionEvent) -> Void) {
        if let e = episode, e.longReported, let seen = lastObservedT {
            emit(.eyesClosed(.end, start: e.start, duration: seen - e.start))
        }
        episode = nil
        armed = false
        previousRatios = nil
    }
}
