/// An on/off expression (smile, open mouth) with an adaptive baseline, hysteresis and minimum
/// durations; see `StateSettings`.
///
/// `.start` is reported on the frame where the measure has been above the start threshold for
/// `minOnDuration`; `.end` on the frame where it has been below the end threshold for
/// `minOffDuration`, or at once when watching is suspended (face lost, |yaw| > `maxYaw`, a
/// non-finite measure, a gap in `t` longer than `maxFrameGap`) so that every `.start` has an
/// `.end`. The value reported with an event is the measure of that frame (the last watched frame
/// for a suspension).
public struct StateDetector: Sendable {
    public let settings: StateSettings

    private var samples: RunningPercentile
    private var active = false
    /// Since when the measure has been past the threshold that would change the state.
    private var pendingSince: Double?
    private var lastT: Double?
    private var lastValue: Double = 0
    public private(set) var baseline: Double

    public init(settings: StateSettings) {
        self.settings = settings
        samples = RunningPercentile(
            window: settings.baselineWindow, quantile: settings.baselineQuantile, capacity: settings.sampleCapacity)
        baseline = settings.fallbackBaseline
    }

    /// True between a reported `.start` and its `.end`.
    public var isActive: Bool { active }

    /// Processes one frame; `value` is the measure, `tracked` false when the face was not found.
    /// Tracked frames with a `t` not after the previous one are ignored; an untracked one always
    /// takes effect.
    public mutating func update(
        t: Double, value: Double, yaw: Double, tracked: Bool, emit: (Transition, Double) -> Void
    ) {
        guard tracked else {
            suspend(emit: emit)
            samples.removeAll()
            baseline = settings.fallbackBaseline
            lastT = max(lastT ?? t, t)
            return
        }
        if let last = lastT {
            guard t > last else { return }
            if t - last > settings.maxFrameGap { suspend(emit: emit) }
        }
        lastT = t
        guard value.isFinite, yaw.isFinite, abs(yaw) <= settings.maxYaw else {
            suspend(emit: emit)
            return
        }
        if let learned = samples.value(), samples.span >= settings.warmup {
            baseline = min(max(learned, settings.baselineRange.lowerBound), settings.baselineRange.upperBound)
        }
        samples.add(value, at: t)
        lastValue = value

        let crossing = active ? value < baseline + settings.endDelta : value > baseline + settings.startDelta
        guard crossing else {
            pendingSince = nil
            return
        }
        let since = pendingSince ?? t
        pendingSince = since
        if t - since >= (active ? settings.minOffDuration : settings.minOnDuration) {
            active.toggle()
            pendingSince = nil
            emit(active ? .start : .end, value)
        }
    }

    /// Forgets everything, including the learned baseline.
    public mutating func reset() {
        self = StateDetector(settings: settings)
    }

    private mutating func suspend(emit: (Transition, Double) -> Void) {
        if active { emit(.end, lastValue) }
        active = false
        pendingSince = nil
    }
}
