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
///   and is reported `settleTime` later. Until both eyes are above `reopenRatio` again, the eyes
///   are **resting** lower than their learned open level (looking down at a screen), and the
///   next episode starts only below `deepRatio × open`, not `closeRatio × open`: the resting
///   eyes do not open one episode after another, and a blink made while resting is timed and
///   split from its own start;
/// - its **length** sorts it: up to `maxDuration` it is a **blink** (from a single frame on: a
///   fast blink at 30 fps may show on one frame only); longer, an **eyes-closed** interval whose
///   `.start` is reported on the frame that passes `maxDuration` and whose `.end` comes when the
///   eyes open again (while the eyes are settling, the length is counted to where they began to,
///   so a closure that settles before `maxDuration` is not reported as one); a one-eyed closure
///   of `winkMinDuration...winkMaxDuration` is a **wink**.
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
///   episode, but it is reported as several blinks when its eyes closed more than once: when
///   between two dips the eyes (both of them: the lower of the two ratios) rose more than
///   `splitRise` (half) of the way from each dip back to open, and each dip on its own reached
///   below the depth limit in both eyes. At one half the two dips' spans at half depth are
///   separate: the lids came up past half open and went down again. A blink with a ragged bottom
///   or a lazy, wavering reopening does not rise that far between its dips and stays one.
public struct BlinkDetector: Sendable {
    public let settings: BlinkSettings

    private var left: EyeState
    private var right: EyeState
    private var armed = false
    /// Whether the last episode ended with the eyes settling below `reopenRatio` and they have not
    /// been above it since: eyes resting lower than the learned open level (looking down at a
    /// screen, or narrower after a blink than before it). A new episode then starts only below
    /// `deepRatio`, so eyes resting between the two thresholds do not open one episode after
    /// another, each ending as it settles, and a blink among them is timed from its own start.
    private var resting = false
    private var episode: Episode?
    private var lastT: Double?
    private var lastObservedT: Double?
    /// The current episode's frames: `t` and both eyes' ratios (storage reused).
    private var trace: [Sample] = []
    /// Where `finish` splits an episode into separate blinks: indices into `trace` (storage reused).
    private var cuts: [Int] = []
    /// Frame-to-frame changes of the eyes' ratios (the mean of both eyes' absolute change), over
    /// the last `jitterWindow`, and the previous watched frame's ratios.
    private var jitter: RunningPercentile
    private var previousRatios: (left: Double, right: Double)?

    private struct Sample {
        var t: Double
        var left: Double
        var right: Double
        /// The lower of the two eyes' ratios.
        var ratio: Double { min(left, right) }
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
        cuts.reserveCapacity(settings.sampleCapacity / 2 + 1)
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

    /// True while a closure episode is under way (its blink, wink or eyes-closed interval is not
    /// decided yet).
    public var isInEpisode: Bool { episode != nil }

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

        if reopened { resting = false }
        if episode == nil, armed, min(left.ratio, right.ratio) < (resting ? s.deepRatio : s.closeRatio) {
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
        if trace.count < settings.sampleCapacity { trace.append(Sample(t: t, left: left.ratio, right: right.ratio)) }
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
                resting = true
                return
            }
        } else {
            e.settledSince = nil
        }
        let deep = e.deep(below: depthLimit())
        // While the eyes settle above the depth limit the episode may yet end where they began to
        // (see `settleTime`), so its length is counted to there.
        if deep.left && deep.right && !e.longReported && !e.turned(s) && (e.settledSince ?? t) - e.start > s.maxDuration {
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
    ///
    /// A blink episode whose eyes closed more than once is reported as one blink per closure
    /// (see `splitClosures`), each with its own span at half depth.
    private mutating func finish(_ e: Episode, at t: Double, emit: (ExpressionEvent) -> Void) {
        let s = settings, duration = t - e.start, limit = depthLimit(), deep = e.deep(below: limit)
        let (start, span) = halfDepthSpan(of: e, endingAt: t)
        if e.longReported {
            emit(.eyesClosed(.end, start: e.start, duration: duration))
        } else if e.turned(s) || (deep.left && deep.right) {
            // During a head turn only a closure of both eyes below `turnDeepRatio` is a blink,
            // and nothing else is reported.
            let closed = !e.turned(s) || (e.leftLowest < s.turnDeepRatio && e.rightLowest < s.turnDeepRatio)
            if closed && duration >= s.minDuration && duration <= s.maxDuration {
                let count = splitClosures(endingAt: t, deepBelow: e.turned(s) ? min(limit, s.turnDeepRatio) : limit)
                if cuts.isEmpty {
                    emit(.blink(start: start, duration: span))
                } else {
                    var from = 0
                    for k in 0...cuts.count {
                        let to = k < cuts.count ? cuts[k] : count
                        var lowest = trace[from].ratio
                        for i in from..<to { lowest = min(lowest, trace[i].ratio) }
                        let (start, span) = halfDepthSpan(from..<to, level: (1 + lowest) / 2, endingAt: t)
                            ?? (trace[from].t, trace[to - 1].t - trace[from].t)
                        emit(.blink(start: start, duration: span))
                        from = to
                    }
                }
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
        return halfDepthSpan(frames.startIndex..<frames.endIndex, level: level, endingAt: end) ?? (e.start, end - e.start)
    }

    /// The start and length of the frames of `range` (indices into `trace`, all before `end`)
    /// whose lower ratio is below `level`: from the first such frame to the frame after the last
    /// (`end` when that is the last kept frame); nil when there is none.
    private func halfDepthSpan(_ range: Range<Int>, level: Double, endingAt end: Double) -> (start: Double, duration: Double)? {
        guard let first = trace[range].firstIndex(where: { $0.ratio < level }),
              let last = trace[range].lastIndex(where: { $0.ratio < level }) else {
            return nil
        }
        let after = last + 1 < trace.endIndex && trace[last + 1].t < end ? trace[last + 1].t : end
        return (trace[first].t, after - trace[first].t)
    }

    /// Finds the separate closures of the episode's kept frames before `end` and leaves in `cuts`
    /// the index of the frame each closure after the first begins with (empty: one closure);
    /// returns the number of those frames.
    ///
    /// Two dips of the lower ratio, `a` and then `b`, are separate closures when the highest
    /// frame `p` between them is `splitRise` of the way back to open from each, p ≥ a + f(1 − a)
    /// and p ≥ b + f(1 − b) (f = `splitRise`): the lids reopened that far and closed again. Each
    /// closure must also, like a blink, reach below `limit` in both eyes; one that does not is
    /// joined to the neighbour it is separated from by the lower rise.
    private mutating func splitClosures(endingAt end: Double, deepBelow limit: Double) -> Int {
        cuts.removeAll(keepingCapacity: true)
        var count = 0
        while count < trace.count && trace[count].t < end { count += 1 }
        let f = settings.splitRise
        guard f < 1, count > 2 else { return count }
        // Walk the frames: `low` is the lowest ratio of the current closure so far, `peak` the
        // highest since then. A frame that has fallen far enough below a high enough peak opens
        // a new closure at that peak.
        var low = trace[0].ratio, peak = low, peakIndex = 0
        for i in 1..<count {
            let r = trace[i].ratio
            if peak >= low + f * (1 - low), peak >= r + f * (1 - r), cuts.count < cuts.capacity {
                cuts.append(peakIndex)
                low = r
                peak = r
                peakIndex = i
            } else if r < low {
                low = r
                peak = r
                peakIndex = i
            } else if r > peak {
                peak = r
                peakIndex = i
            }
        }
        // A closure that is not a blink on its own joins a neighbour. Joining only lowers a
        // closure's lowest point, so the rises of the remaining cuts still count.
        var k = 0
        while k <= cuts.count && !cuts.isEmpty {
            let from = k == 0 ? 0 : cuts[k - 1], to = k < cuts.count ? cuts[k] : count
            var leftLowest = Double.infinity, rightLowest = Double.infinity
            for i in from..<to {
                leftLowest = min(leftLowest, trace[i].left)
                rightLowest = min(rightLowest, trace[i].right)
            }
            if leftLowest < limit && rightLowest < limit {
                k += 1
                continue
            }
            let before = k > 0 ? trace[cuts[k - 1]].ratio : .infinity
            let after = k < cuts.count ? trace[cuts[k]].ratio : .infinity
            if before <= after {
                cuts.remove(at: k - 1)
                k -= 1
            } else {
                cuts.remove(at: k)
            }
        }
        return count
    }

    /// Stops watching: drops a half-finished episode (ending a reported long closure at the last
    /// frame it was seen) and disarms until both eyes are seen open again.
    private mutating func suspend(emit: (ExpressionEvent) -> Void) {
        if let e = episode, e.longReported, let seen = lastObservedT {
            emit(.eyesClosed(.end, start: e.start, duration: seen - e.start))
        }
        episode = nil
        armed = false
        resting = false
        previousRatios = nil
    }
}
