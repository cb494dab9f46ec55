/// A frame period as a fraction of a second (V4L2 `timeperframe`): 1/30 is 30 frames per second.
public struct FrameInterval: Sendable, Equatable, CustomStringConvertible {
    public var numerator: Int
    public var denominator: Int

    public init(numerator: Int, denominator: Int) {
        self.numerator = numerator
        self.denominator = denominator
    }

    /// The interval for a frame rate: 1/fps, or a finer fraction for rates like 29.97.
    public init(fps: Double) {
        if fps == fps.rounded() {
            self.init(numerator: 1, denominator: Int(fps))
        } else {
            self.init(numerator: 1000, denominator: Int((fps * 1000).rounded()))
        }
    }

    public var seconds: Double { Double(numerator) / Double(max(denominator, 1)) }

    /// Frames per second (0 for a zero interval).
    public var fps: Double { numerator > 0 ? Double(denominator) / Double(numerator) : 0 }

    public var description: String { "\(numerator)/\(denominator) s" }
}

/// Frame intervals a device offers for a format and size (VIDIOC_ENUM_FRAMEINTERVALS).
public enum FrameIntervalRange: Sendable, Equatable {
    /// Exactly this interval.
    case discrete(FrameInterval)
    /// Any interval from `min` to `max` in steps of `step` (the driver rounds what it is asked for).
    case stepwise(min: FrameInterval, max: FrameInterval, step: FrameInterval)

    /// The interval in this range nearest to `target` (by frame period); within a stepwise range,
    /// `target` itself, for S_PARM to round.
    public func nearest(to target: FrameInterval) -> FrameInterval {
        switch self {
        case .discrete(let interval):
            return interval
        case .stepwise(let low, let high, _):
            if target.seconds < low.seconds { return low }
            if target.seconds > high.seconds { return high }
            return target
        }
    }
}
