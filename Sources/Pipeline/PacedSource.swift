import Foundation
import Recordings

/// Plays another source on its own clock: each frame is released when `t / speed` seconds have
/// passed since the first, as a camera would deliver it (`speed` 1 is real time, 4 is four
/// times faster). Used to replay recordings through the live pipeline.
///
/// A gap in the recording that would mean waiting longer than `maximumWait` seconds for one frame
/// (a recording paused for hours, or a corrupt time) is played as a `maximumWait` pause: the
/// clock moves on from there, so a bad time never stalls the stream.
public struct PacedSource<Base: FrameSource>: FrameSource {
    private var base: Base
    public let speed: Double
    public let maximumWait: Double
    private var start: Double?
    private let shouldStop: () -> Bool

    /// `speed` is finite and at least `Recording.slowestSpeed`.
    /// `shouldStop` is polled while waiting so that a stop request is honoured quickly.
    public init(_ base: Base, speed: Double, maximumWait: Double = 10, shouldStop: @escaping () -> Bool = { false }) {
        precondition(speed >= Recording.slowestSpeed && speed.isFinite, "speed must be finite and at least Recording.slowestSpeed")
        self.base = base
        self.speed = speed
        self.maximumWait = maximumWait
        self.shouldStop = shouldStop
    }

    public mutating func nextFrame() throws -> Frame? {
        guard let frame = try base.nextFrame() else { return nil }
        let now = MonotonicClock.now()
        var start = self.start ?? now - frame.t / speed
        if start + frame.t / speed - now > maximumWait {
            start = now + maximumWait - frame.t / speed
        }
        self.start = start
        var wait = start + frame.t / speed - MonotonicClock.now()
        while wait > 0 && !shouldStop() {
            Thread.sleep(forTimeInterval: min(wait, 0.05))
            wait = start + frame.t / speed - MonotonicClock.now()
        }
        return frame
    }
}
