import Pipeline

/// The whole pipeline on a recording, one processing thread: frames per second, how often the
/// full-frame detector ran, and each stage's times (ms) by name, in the order they run.
public struct PipelineFigures: Sendable {
    public var frames = 0
    public var fps = 0.0
    public var detectorCallsPerFrame = 0.0
    public var stages: [(String, TimingSummary)] = []

    /// The mean time (ms) of the stage named `name` (0 when there is none).
    public func mean(_ name: String) -> Double {
        stages.first { $0.0 == name }?.1.mean ?? 0
    }
}
