/// Turns nose positions (0…1 of the frame, from `nose` events) into pointer positions (0…1 of the
/// screen). The first `calibrate` seconds of positions are averaged into the neutral point (the
/// pointer stays centred meanwhile); after that, each axis is smoothed by a One Euro filter, its
/// offset from neutral loses the dead zone and is multiplied by the gain, and the pointer sits
/// that far from the screen's centre (mirrored left-right by default, as the camera faces the user).
public struct PointerMapper: Sendable {
    public let settings: PointerConfiguration
    public private(set) var neutral: (x: Double, y: Double)?
    private var calibration: (start: Double, sumX: Double, sumY: Double, count: Int)?
    private var filterX: OneEuroFilter
    private var filterY: OneEuroFilter

    public init(settings: PointerConfiguration) {
        self.settings = settings
        filterX = OneEuroFilter(minCutoff: settings.minCutoff, beta: settings.beta)
        filterY = OneEuroFilter(minCutoff: settings.minCutoff, beta: settings.beta)
    }

    /// The pointer position for the nose at (x, y) at time `t`; nil while calibrating.
    public mutating func update(noseX x: Double, noseY y: Double, t: Double) -> (x: Double, y: Double)? {
        guard let neutral else {
            var sums = calibration ?? (t, 0, 0, 0)
            sums.sumX += x
            sums.sumY += y
            sums.count += 1
            calibration = sums
            if t - sums.start >= settings.calibrate {
                neutral = (sums.sumX / Double(sums.count), sums.sumY / Double(sums.count))
            }
            return nil
        }
        let fx = filterX.filter(x, at: t), fy = filterY.filter(y, at: t)
        let dx = deadZoned(fx - neutral.x) * (settings.mirror ? -1 : 1), dy = deadZoned(fy - neutral.y)
        return (clamp(0.5 + settings.gain * dx), clamp(0.5 + settings.gain * dy))
    }

    private func deadZoned(_ offset: Double) -> Double {
        let magnitude = abs(offset) - settings.deadZone
        return magnitude <= 0 ? 0 : (offset < 0 ? -magnitude : magnitude)
    }

    private func clamp(_ value: Double) -> Double {
        min(1, max(0, value))
    }
}
