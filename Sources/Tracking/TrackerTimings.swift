import Dispatch

/// Where the last `FaceTracker.update` spent its time, in seconds (for `facewatch bench`).
public struct TrackerTimings: Sendable, Equatable {
    /// Full-frame detection, including the new tracks' first fits.
    public var detection = 0.0
    /// Landmark fits of the tracked faces (box from the previous landmarks + fit).
    public var landmarks = 0.0
    /// Window checks that tracked faces are still faces.
    public var verification = 0.0

    public init() {}

    /// Runs `body` and adds its duration to the stage at `stage`.
    @inline(__always)
    mutating func time<T>(_ stage: WritableKeyPath<TrackerTimings, Double>, _ body: () -> T) -> T {
        let start = DispatchTime.now().uptimeNanoseconds
        let result = body()
        self[keyPath: stage] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return result
    }
}
