/// Why a frame never reached the landmark model.
public enum FrameDropReason: String, Sendable, CaseIterable {
    /// A newer frame replaced it in the one-slot handoff (processing was busy).
    case handoff
    /// The camera driver dropped it before the daemon saw it.
    case camera
    /// It arrived but could not be decoded.
    case decode
}

/// What a live pipeline reports as it runs, for metrics. Called from the pipeline's capture and
/// processing queues: implementations must be thread-safe and quick.
public protocol PipelineObserver: AnyObject, Sendable {
    /// A frame arrived from the source.
    func frameCaptured()
    /// `count` frames were dropped for `reason`.
    func framesDropped(_ count: Int, reason: FrameDropReason)
    /// A frame was decoded and processed in `seconds`, `latency` seconds after it arrived, with
    /// `faces` faces tracked.
    func frameProcessed(seconds: Double, latency: Double, faces: Int)
}
