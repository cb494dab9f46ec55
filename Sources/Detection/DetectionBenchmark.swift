import Imaging
import Landmarks

/// Wall-clock timing of repeated full-frame detections on one thread (for `facewatch bench`
/// and for comparing cascades and settings; not a test).
public enum DetectionBenchmark {
    /// Summary of one measurement.
    public struct Timing: Sendable, CustomStringConvertible {
        /// Number of timed `detect` calls.
        public let calls: Int
        public let medianMilliseconds: Double
        public let meanMilliseconds: Double
        public let minimumMilliseconds: Double
        public let maximumMilliseconds: Double
        /// Mean over frames of each frame's fastest call: the least noisy figure on a busy machine.
        public let bestPerFrameMilliseconds: Double
        /// Faces found per frame over the timed calls.
        public let facesPerFrame: Double

        public var description: String {
            func f(_ v: Double) -> String { String(Double((v * 100).rounded()) / 100) }
            return "best \(f(bestPerFrameMilliseconds)) ms, median \(f(medianMilliseconds)) ms, mean \(f(meanMilliseconds)) ms, "
                + "min \(f(minimumMilliseconds)) ms, max \(f(maximumMilliseconds)) ms over \(calls) calls, "
                + "\(f(facesPerFrame)) faces/frame"
        }
    }

    /// Runs `detector` over `frames` `rounds` times after one untimed warm-up pass (which also
    /// sizes the detector's buffers) and times each call.
    public static func measure(_ detector: inout CascadeDetector, frames: [GrayImage], rounds: Int = 10) -> Timing {
        var faces: [FaceBox] = []
        for frame in frames { detector.detect(frame, into: &faces) }
        var best = [Double](repeating: .infinity, count: frames.count)
        var samples: [Double] = []
        samples.reserveCapacity(frames.count * max(rounds, 1))
        var found = 0
        let clock = ContinuousClock()
        for _ in 0..<max(rounds, 1) {
            for (index, frame) in frames.enumerated() {
                let start = clock.now
                detector.detect(frame, into: &faces)
                let elapsed = clock.now - start
                let milliseconds = Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1e3
                samples.append(milliseconds)
                best[index] = min(best[index], milliseconds)
                found += faces.count
            }
        }
        guard !samples.isEmpty else {
            return Timing(calls: 0, medianMilliseconds: 0, meanMilliseconds: 0, minimumMilliseconds: 0,
                          maximumMilliseconds: 0, bestPerFrameMilliseconds: 0, facesPerFrame: 0)
        }
        samples.sort()
        return Timing(calls: samples.count, medianMilliseconds: samples[samples.count / 2],
                      meanMilliseconds: samples.reduce(0, +) / Double(samples.count),
                      minimumMilliseconds: samples[0], maximumMilliseconds: samples[samples.count - 1],
                      bestPerFrameMilliseconds: best.reduce(0, +) / Double(best.count),
                      facesPerFrame: Double(found) / Double(samples.count))
    }
}
