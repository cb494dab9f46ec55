/// One eye-narrowing episode that `BlinkEpisodes` found, with the features `BlinkModel` decides
/// it by.
public struct BlinkCandidate: Sendable {
    /// The features, in `BlinkModel`'s order (see there).
    public typealias Features = InlineArray<31, Double>

    /// The episode at half its depth: `t` of its first frame and of the frame after its last.
    public var start: Double
    public var end: Double
    /// `t` of its lowest frame.
    public var lowest: Double
    public var features: Features
    /// How much the eyes' ratios jittered before the episode: the median of the mean change of
    /// both eyes' ratios between consecutive frames over the second before it.
    public var jitter: Double
    /// How far the yaw moved, in degrees, over the episode's frames and the 0.1 s on either side
    /// (those kept when it was measured).
    public var turn: Double

    public init(start: Double, end: Double, lowest: Double, features: Features, jitter: Double, turn: Double) {
        self.start = start
        self.end = end
        self.lowest = lowest
        self.features = features
        self.jitter = jitter
        self.turn = turn
    }

    /// How far the eyes' mean ratio went down (1 − its lowest): the feature `depth`.
    public var depth: Double { features[2 * BlinkEpisodes.windowSamples] }
}
