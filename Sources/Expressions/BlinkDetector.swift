/// The blink, wink and long-closure state machine of one face.
///
/// Feed it every frame of the face, in order of `t`. Each eye has its own open EAR, learned as a
/// running percentile of its recent non-closed samples (`BlinkSettings.openWindow`,
/// `openQuantile`), and closes/reopens at fixed fractions of it, so narrow eyes, glasses and
/// different cameras need no tuning. Until `warmup` seconds have been learned the open EAR is
/// `fallbackOpen`, or what has been seen so far when that is lower.
///
/// A closure episode starts when either eye closes and ends on the first frame with both eyes
/// open; when it ends it is reported as
/// - a **blink** if both eyes closed (the second no later than the next frame or `maxEyeLag`
///   after the first) and the episode lasted `minDuration...maxDuration`;
/// - a **wink** if only one eye closed, the other stayed above `winkOpenRatio × open`
///   throughout, and it lasted `winkMinDuration...winkMaxDuration`;
/// - an **eyes-closed end** if both eyes stayed closed past `maxDuration` (the `.start` was
///   reported at the frame that passed it); such a closure is never also a blink;
/// - nothing otherwise (too short: a landmark glitch; a half-closure never reaches the close
///   threshold and starts no episode at all).
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
/// - **Dropped frames**: durations come from `t`, so a blink whose closed frames arrived between
///   gaps is measured correctly; a gap longer than `maxFrameGap` is treated as a suspension.
public struct BlinkDetector: Sendable {
    public let settings: BlinkSettings

    private var left: EyeState
    private var right: EyeState
    private var armed = false
    private var episode: Episode?
    private var lastT: Double?
    private var lastObservedT: Double?
    private var frameIndex = 0

    private struct Episode {
        var start: Double
        var leftClosed: (t: Double, frame: Int)?
        var rightClosed: (t: Double, frame: Int)?
        /// The eye dropped below `winkOpenRatio × open` at some point.
        var leftDipped = false
        var rightDipped = false
        var longReported = false
    }

    public init(settings: BlinkSettings = BlinkSettings()) {
        self.settings = settings
        left = EyeState(settings: settings)
        right = EyeState(settings: settings)
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
            lastT = max(lastT ?? t, t)
            return
        }
        if let last = lastT {
            guard t > last else { return }
            if t - last > settings.maxFrameGap { suspend(emit: emit) }
        }
        lastT = t
        frameIndex += 1
        guard earLeft.isFinite, earRight.isFinite, yaw.isFinite, abs(yaw) <= settings.maxYaw else {
            suspend(emit: emit)
            return
        }
        lastObservedT = t
        left.step(ear: earLeft, t: t, settings: settings)
        right.step(ear: earRight, t: t, settings: settings)
        let leftClosed = left.closed, rightClosed = right.closed

        guard armed else {
            armed = !leftClosed && !rightClosed
            return
        }
        if episode == nil {
            guard leftClosed || rightClosed else { return }
            episode = Episode(start: t)
        }
        guard var e = episode else { return }
        if leftClosed && e.leftClosed == nil { e.leftClosed = (t, frameIndex) }
        if rightClosed && e.rightClosed == nil { e.rightClosed = (t, frameIndex) }
        if earLeft < settings.winkOpenRatio * left.open { e.leftDipped = true }
        if earRight < settings.winkOpenRatio * right.open { e.rightDipped = true }

        if !leftClosed && !rightClosed {
            finish(e, at: t, emit: emit)
            episode = nil
            return
        }
        if leftClosed && rightClosed && !e.longReported && paired(e) && t - e.start > settings.maxDuration {
            e.longReported = true
            emit(.eyesClosed(.start, start: e.start, duration: t - e.start))
        }
        episode = e
    }

    /// Forgets everything, including the learned open EAR, as for a new face.
    public mutating func reset() {
        self = BlinkDetector(settings: settings)
    }

    private func paired(_ e: Episode) -> Bool {
        guard let l = e.leftClosed, let r = e.rightClosed else { return false }
        return abs(l.frame - r.frame) <= 1 || abs(l.t - r.t) <= settings.maxEyeLag
    }

    private func finish(_ e: Episode, at t: Double, emit: (ExpressionEvent) -> Void) {
        let duration = t - e.start
        if e.longReported {
            emit(.eyesClosed(.end, start: e.start, duration: duration))
        } else if paired(e) {
            if duration >= settings.minDuration && duration <= settings.maxDuration {
                emit(.blink(start: e.start, duration: duration))
            }
        } else if duration >= settings.winkMinDuration && duration <= settings.winkMaxDuration {
            if e.leftClosed != nil && e.rightClosed == nil && !e.rightDipped {
                emit(.wink(eye: .left, start: e.start, duration: duration))
            } else if e.rightClosed != nil && e.leftClosed == nil && !e.leftDipped {
                emit(.wink(eye: .right, start: e.start, duration: duration))
            }
        }
    }

    /// Stops watching: drops a half-finished episode (ending a reported long closure at the last
    /// frame it was seen) and disarms until both eyes are seen open again.
    private mutating func suspend(emit: (ExpressionEvent) -> Void) {
        if let e = episode, e.longReported, let seen = lastObservedT {
            emit(.eyesClosed(.end, start: e.start, duration: seen - e.start))
        }
        episode = nil
        armed = false
        left.restart()
        right.restart()
    }
}
