/// One eye's learned open EAR and its open/closed state with hysteresis (used by `BlinkDetector`).
struct EyeState: Sendable {
    private var samples: RunningPercentile
    /// The open EAR the thresholds of the current frame are relative to.
    private(set) var open: Double
    private(set) var closed = false

    init(settings: BlinkSettings) {
        samples = RunningPercentile(
            window: settings.openWindow, quantile: settings.openQuantile, capacity: settings.sampleCapacity)
        open = settings.fallbackOpen
    }

    /// Updates the state with the EAR of a frame at `t`, then learns the sample unless the eye
    /// looks closed (EAR below the close threshold).
    mutating func step(ear: Double, t: Double, settings s: BlinkSettings) {
        open = openEstimate(settings: s)
        if closed {
            if ear > s.reopenRatio * open { closed = false }
        } else if ear < s.closeRatio * open {
            closed = true
        }
        if ear >= s.closeRatio * open { samples.add(ear, at: t) }
    }

    /// Forgets the open/closed state (after a suspension) but keeps what was learned.
    mutating func restart() {
        closed = false
    }

    /// Forgets everything learned (a lost track may come back as someone else).
    mutating func forget(settings: BlinkSettings) {
        samples.removeAll()
        open = settings.fallbackOpen
        closed = false
    }

    private mutating func openEstimate(settings s: BlinkSettings) -> Double {
        guard let learned = samples.value() else { return s.fallbackOpen }
        return samples.span >= s.warmup ? learned : min(s.fallbackOpen, learned)
    }
}
