import Pointer
import XCTest

/// The One Euro filter: still input stays put, jitter at rest is smoothed hard, a fast move is
/// followed closely (the cutoff opens with speed).
final class OneEuroFilterTests: XCTestCase {
    func testTheFirstSampleAndAConstantSignalPassUnchanged() {
        var filter = OneEuroFilter(minCutoff: 1, beta: 0.5)
        XCTAssertEqual(filter.filter(0.3, at: 0), 0.3)
        for n in 1...30 { XCTAssertEqual(filter.filter(0.3, at: Double(n) / 30), 0.3, accuracy: 1e-12) }
    }

    func testJitterAtRestIsSmoothed() {
        var filter = OneEuroFilter(minCutoff: 1, beta: 0.5)
        var rawSpread = 0.0, filteredSpread = 0.0
        var previousRaw = 0.5, previousFiltered = 0.5
        for n in 0..<300 {
            let raw = 0.5 + (n % 2 == 0 ? 0.004 : -0.004)
            let filtered = filter.filter(raw, at: Double(n) / 30)
            if n > 30 {
                rawSpread += abs(raw - previousRaw)
                filteredSpread += abs(filtered - previousFiltered)
            }
            previousRaw = raw
            previousFiltered = filtered
        }
        XCTAssertLessThan(filteredSpread, rawSpread / 5, "frame-to-frame jitter cut by more than 5×")
    }

    func testSpeedOpensTheCutoff() {
        // The same step, followed by a filter with and without the speed term.
        var adaptive = OneEuroFilter(minCutoff: 1, beta: 5)
        var fixed = OneEuroFilter(minCutoff: 1, beta: 0)
        var lastAdaptive = 0.0, lastFixed = 0.0
        for n in 0..<10 {
            let value = Double(n) * 0.02  // a steady fast move
            lastAdaptive = adaptive.filter(value, at: Double(n) / 30)
            lastFixed = fixed.filter(value, at: Double(n) / 30)
        }
        let target = 0.18
        XCTAssertLessThan(abs(target - lastAdaptive), abs(target - lastFixed) / 2, "less lag when moving fast")
    }

    func testTheAlphaOfALowPassFilter() {
        // tau = 1 / (2π fc); alpha = 1 / (1 + tau / dt): at fc = 1 Hz, dt = 1/30 s, alpha ≈ 0.1731.
        var filter = OneEuroFilter(minCutoff: 1, beta: 0, derivativeCutoff: 1)
        _ = filter.filter(0, at: 0)
        XCTAssertEqual(filter.filter(1, at: 1.0 / 30), 1 / (1 + (1 / (2 * Double.pi)) * 30), accuracy: 1e-12)
    }
}
