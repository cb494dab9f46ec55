/// One eye's learned open EAR and where the current frame sits relative to it (used by
/// `BlinkDetector`).
struct EyeState: Sendable {
    private var samples: RunningPercentile
    /// The open EAR the ratios of the current frame are relative to.
    private(set) var open: Double
    /// The current frame's EAR as a fraction of `open`.
    private(set) var ratio = 1.0

    init(settings: BlinkSettings) {
        samples = RunningPercentile(
            window: settings.openWindow, quantile: settings.openQuantile, capacity: settings.sampleCapacity)
        open = settings.fallbackOpen
    }

    /// Takes the EAR of a frame at `t`: updates `open` from what was learned before and sets `ratio`.
    mutating func step(ear: Double, t: Double, settings s: BlinkSettings) {
        open = openEstimate(at: t, settings: s)
        ratio = ear / open
    }

    /// Learns the frame's EAR as an open-eye sample unless the eye looks closing (below
    /// `closeRatio × open`; below `deepRatio × open` while the detector is not yet armed, so a
    /// narrow eye below the fallback's thresholds is still learned). The detector calls it only
    /// outside closure episodes.
    mutating func learn(ear: Double, t: Double, armed: Bool, settings s: BlinkSettings) {
        if ratio >= (armed ? s.closeRatio : s.deepRatio) { samples.add(ear, at: t) }
    }

    /// Forgets everything learned (a lost track may come back as someone else).
    mutating func forget(settings: BlinkSettings) {
        samples.removeAll()
        open = settings.fallbackOpen
        ratio = 1
    }

    private mutating func openEstimate(at t: Double, settings s: BlinkSettings) -> Double {
        guard let learned = samples.value() else { return s.fallbackOpen }
        return samples.span >= s.warmup ? learned : min(s.fallbackOpen, learned)
    }
}
