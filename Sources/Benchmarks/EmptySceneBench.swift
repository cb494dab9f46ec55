import Detection
import Foundation
import Imaging
import Landmarks
import Pipeline
import Tracking

/// The cost of watching an empty view and how soon a face walking into it is found: the figures
/// behind `tracking.empty_scan_interval_s` and `motion_scan_interval_s` (`facewatch bench`).
public struct EmptySceneBench: Sendable {
    /// Share of one core the tracker takes on an empty 640×480 view at 30 fps (decode not
    /// included): processor time of every thread of the process, so a scan split over two
    /// threads counts both.
    public var coreShare = 0.0
    /// Full-frame looks per second on that view.
    public var looksPerSecond = 0.0
    /// Worst and mean delay (s) from a face being fully in view to its track starting, over
    /// arrivals at different points of the scan schedule.
    public var worstDelay = 0.0
    public var meanDelay = 0.0
    public var trials = 0

    public static let fps = 30.0

    /// Seconds of processor time used by all threads of this process so far.
    private static func processorTime() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

extension EmptySceneBench {
    /// `face` is a 640×480 frame with one face; the empty view is a flat gray with fresh sensor
    /// noise (±4 levels) every frame, as a camera gives.
    init(face: GrayImage, detector: any FaceDetector, predictor: ShapePredictor, settings: TrackerSettings) {
        let width = face.width, height = face.height
        let views = (0..<4).map { Self.noisyView(width: width, height: height, seed: UInt64($0 + 1)) }

        // 20 s of an empty view after a 2 s warm-up.
        let tracker = FaceTracker(detector: detector, predictor: predictor, settings: settings)
        let warm = Int(2 * Self.fps), timed = Int(20 * Self.fps)
        var seconds = 0.0
        var looks = 0
        for n in 0..<(warm + timed) {
            let start = Self.processorTime()
            tracker.update(views[n % views.count], t: Double(n) / Self.fps)
            if n >= warm { seconds += Self.processorTime() - start }
            if n == warm - 1 { looks = tracker.detectorRuns }
        }
        coreShare = seconds / (Double(timed) / Self.fps)
        looksPerSecond = Double(tracker.detectorRuns - looks) / (Double(timed) / Self.fps)

        // A person walks in: the frame slides in from the left over 10 frames (1/3 s), arriving
        // at different phases of the schedule (every 0.1 s over 1.2 s).
        var delays: [Double] = []
        var frame = GrayImage(width: width, height: height)
        for trial in 0..<12 {
            let tracker = FaceTracker(detector: detector, predictor: predictor, settings: settings)
            let enter = 60 + trial * 3  // frame the slide starts
            var n = 0
            while n < enter + 10 + Int(3 * Self.fps) {
                let view = views[n % views.count]
                let offset = n < enter ? -width : min(0, -width + (n - enter + 1) * width / 10)
                Self.compose(face, offset: offset, over: view, into: &frame)
                tracker.update(frame, t: Double(n) / Self.fps)
                if !tracker.found.isEmpty && n >= enter {
                    delays.append(max(0, Double(n - (enter + 9)) / Self.fps))
                    break
                }
                n += 1
            }
        }
        trials = 12
        worstDelay = delays.count == trials ? (delays.max() ?? .infinity) : .infinity
        meanDelay = delays.isEmpty ? .infinity : delays.reduce(0, +) / Double(delays.count)
    }

    private static func noisyView(width: Int, height: Int, seed: UInt64) -> GrayImage {
        var image = GrayImage(width: width, height: height)
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for i in image.pixels.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            image.pixels[i] = UInt8(106 + Int(state % 9))
        }
        return image
    }

    /// `face` shifted right by `offset` pixels (negative: partly outside) over `view`.
    private static func compose(_ face: GrayImage, offset: Int, over view: GrayImage, into frame: inout GrayImage) {
        frame.pixels.withUnsafeMutableBufferPointer { out in
            view.pixels.withUnsafeBufferPointer { back in
                face.pixels.withUnsafeBufferPointer { src in
                    for y in 0..<view.height {
                        let row = y * view.width
                        for x in 0..<view.width {
                            let sx = x - offset
                            out[row + x] = sx >= 0 && sx < face.width ? src[y * face.width + sx] : back[row + x]
                        }
                    }
                }
            }
        }
    }
}
