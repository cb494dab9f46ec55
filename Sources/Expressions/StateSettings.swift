/// Thresholds and timings of a `StateDetector` (smile, open mouth).
///
/// The detector compares the measure with the person's neutral level, the baseline: a running
/// low percentile of every watched sample over `baselineWindow` seconds. The percentile is low
/// enough that a smile or open mouth held for most of the window does not become the new neutral,
/// and the learned baseline is clamped to `baselineRange` so that neither a person who smiles all
/// the time nor a bad landmark fit can move it far from a plausible neutral face.
public struct StateSettings: Sendable, Equatable {
    /// Baseline used until `warmup` seconds of samples have been seen.
    public var fallbackBaseline: Double
    /// Where a learned baseline may lie.
    public var baselineRange: ClosedRange<Double>
    /// The state starts when the measure exceeds `baseline + startDelta` ...
    public var startDelta: Double
    /// ... and ends when it falls below `baseline + endDelta` (hysteresis: `endDelta < startDelta`).
    public var endDelta: Double
    /// The measure must stay above the start threshold this long before `.start` is reported (s).
    public var minOnDuration: Double
    /// The measure must stay below the end threshold this long before `.end` is reported (s).
    public var minOffDuration: Double
    /// Seconds of samples the baseline is learned from.
    public var baselineWindow: Double = 20
    /// Percentile of those samples taken as the baseline.
    public var baselineQuantile: Double = 0.2
    /// Seconds the samples must span before the learned baseline is used.
    public var warmup: Double = 1
    /// Detection is suspended while |yaw| exceeds this many degrees (default 50°: the measures
    /// are corrected for the turn (`Foreshortening`) and hold to 45°; the estimated yaw of a face
    /// held at 45° reads up to about 48°, so the margin keeps such a face watched).
    public var maxYaw: Double = 50
    /// A gap in `t` longer than this (s) is treated as a suspension.
    public var maxFrameGap: Double = 0.3
    /// Most samples kept for the baseline (default 1280: 20 s at 64 fps; beyond that the window
    /// is shorter).
    public var sampleCapacity: Int = 1280

    public init(
        fallbackBaseline: Double, baselineRange: ClosedRange<Double>, startDelta: Double, endDelta: Double,
        minOnDuration: Double, minOffDuration: Double
    ) {
        self.fallbackBaseline = fallbackBaseline
        self.baselineRange = baselineRange
        self.startDelta = startDelta
        self.endDelta = endDelta
        self.minOnDuration = minOnDuration
        self.minOffDuration = minOffDuration
    }

    /// Smile on `FaceGeometry.smileScore` (neutral ≈ 0, broad smile ≈ 1): starts 0.35 above the
    /// neutral face and ends below 0.2 above it; a smile must last 0.25 s (a talking mouth
    /// widens briefly) and end for 0.2 s. Baseline between −0.5 and 0.3.
    public static let smile = StateSettings(
        fallbackBaseline: 0, baselineRange: -0.5...0.3, startDelta: 0.35, endDelta: 0.2,
        minOnDuration: 0.25, minOffDuration: 0.2)

    /// Open mouth on the inner-lip MAR (lips together ≈ 0–0.1, toothy smile ≈ 0.27, open ≥ 0.5):
    /// starts 0.3 above the neutral MAR and ends below 0.2 above it, after 0.2 s and 0.15 s
    /// (speech opens the mouth in shorter bursts). Baseline between 0 and 0.2.
    public static let mouthOpen = StateSettings(
        fallbackBaseline: 0.03, baselineRange: 0...0.2, startDelta: 0.3, endDelta: 0.2,
        minOnDuration: 0.2, minOffDuration: 0.15)
}
