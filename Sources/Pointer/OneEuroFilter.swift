import Foundation

/// The One Euro filter (Casiez, Roussel and Vogel, CHI 2012): a low-pass filter whose cutoff
/// rises with the signal's speed, so a still nose gives a still pointer (little jitter) while a
/// fast move is followed with little lag. `minCutoff` (Hz) sets the smoothing at rest, `beta`
/// how quickly the cutoff opens with speed, `derivativeCutoff` (Hz) smooths the speed estimate.
public struct OneEuroFilter: Sendable {
    public let minCutoff: Double
    public let beta: Double
    public let derivativeCutoff: Double
    private var last: (t: Double, value: Double, derivative: Double)?

    public init(minCutoff: Double, beta: Double, derivativeCutoff: Double = 1) {
        self.minCutoff = minCutoff
        self.beta = beta
        self.derivativeCutoff = derivativeCutoff
    }

    /// Filters the sample `value` taken at time `t` (seconds, increasing). The first sample, and
    /// a sample at or before the previous time, passes through unchanged.
    public mutating func filter(_ value: Double, at t: Double) -> Double {
        guard let last, t > last.t else {
            last = (t, value, 0)
            return value
        }
        let dt = t - last.t
        let derivative = Self.smooth(last.derivative, (value - last.value) / dt, alpha: Self.alpha(cutoff: derivativeCutoff, dt: dt))
        let cutoff = minCutoff + beta * abs(derivative)
        let filtered = Self.smooth(last.value, value, alpha: Self.alpha(cutoff: cutoff, dt: dt))
        self.last = (t, filtered, derivative)
        return filtered
    }

    /// The smoothing factor of a first-order low-pass filter with this cutoff at this step.
    static func alpha(cutoff: Double, dt: Double) -> Double {
        let tau = 1 / (2 * Double.pi * cutoff)
        return 1 / (1 + tau / dt)
    }

    private static func smooth(_ previous: Double, _ value: Double, alpha: Double) -> Double {
        previous + alpha * (value - previous)
    }
}
