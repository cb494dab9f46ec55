@testable import Expressions

/// One frame of synthetic input for `BlinkDetector`.
struct EyeFrame {
    var t: Double
    var left: Double
    var right: Double
    var yaw: Double = 0
    var tracked: Bool = true
}

/// Builds frame sequences at a fixed frame rate from per-eye EAR functions of time.
struct BlinkTimeline {
    var fps: Double = 30
    var duration: Double
    var left: (Double) -> Double
    var right: (Double) -> Double
    var yaw: (Double) -> Double = { _ in 0 }

    func frames(dropping drop: (Int) -> Bool = { _ in false }) -> [EyeFrame] {
        let n = Int((duration * fps).rounded())
        return (0..<n).compactMap { i -> EyeFrame? in
            if drop(i) { return nil }
            let t = Double(i) / fps
            return EyeFrame(t: t, left: left(t), right: right(t), yaw: yaw(t))
        }
    }
}

/// Runs a detector over frames and collects (frame t, event).
func detect(_ frames: [EyeFrame], settings: BlinkSettings = BlinkSettings()) -> [(t: Double, event: ExpressionEvent)] {
    var detector = BlinkDetector(settings: settings)
    return detect(frames, on: &detector)
}

func detect(_ frames: [EyeFrame], on detector: inout BlinkDetector) -> [(t: Double, event: ExpressionEvent)] {
    var events: [(t: Double, event: ExpressionEvent)] = []
    for f in frames {
        detector.update(t: f.t, earLeft: f.left, earRight: f.right, yaw: f.yaw, tracked: f.tracked) {
            events.append((f.t, $0))
        }
    }
    return events
}

/// EAR `closed` during [start, start + length) in whole frames, `open` elsewhere (a step profile:
/// exactly the frames inside the interval are closed).
func step(open: Double, closed: Double, start: Double, length: Double, fps: Double = 30) -> (Double) -> Double {
    let first = Int((start * fps).rounded()), count = Int((length * fps).rounded())
    return { t in
        let i = Int((t * fps).rounded())
        return i >= first && i < first + count ? closed : open
    }
}

/// A realistic blink: linear closing over `fall`, held at `closed` for `hold`, linear reopening
/// over `rise` (seconds), starting at `start`.
func blinkProfile(open: Double, closed: Double, start: Double, fall: Double, hold: Double, rise: Double) -> (Double) -> Double {
    return { t in
        let x = t - start
        if x < 0 || x >= fall + hold + rise { return open }
        if x < fall { return open + (closed - open) * x / fall }
        if x < fall + hold { return closed }
        return closed + (open - closed) * (x - fall - hold) / rise
    }
}

/// The blinks among events, as (start, duration).
func blinks(_ events: [(t: Double, event: ExpressionEvent)]) -> [(start: Double, duration: Double)] {
    events.compactMap {
        if case .blink(let s, let d) = $0.event { return (s, d) }
        return nil
    }
}
