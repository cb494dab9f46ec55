/// The state machines' current thresholds for one face, in `frame` lines (a field added to the
/// spec) so that a plot or a client can show why an event fired or did not.
public struct FrameThresholds: Sendable, Equatable {
    /// EAR below which each eye counts as closed (learned from the person's open eyes).
    public var earCloseLeft: Double
    public var earCloseRight: Double
    /// Smile score above which a smile starts.
    public var smile: Double
    /// MAR above which the mouth counts as open.
    public var mar: Double

    public init(earCloseLeft: Double, earCloseRight: Double, smile: Double, mar: Double) {
        self.earCloseLeft = earCloseLeft
        self.earCloseRight = earCloseRight
        self.smile = smile
        self.mar = mar
    }
}
