/// Frame sizes a device offers for a pixel format (VIDIOC_ENUM_FRAMESIZES).
public enum FrameSizeRange: Sendable, Equatable {
    /// Exactly this size.
    case discrete(width: Int, height: Int)
    /// Any size from `min` to `max` in steps (continuous when the steps are 1).
    case stepwise(minWidth: Int, maxWidth: Int, stepWidth: Int, minHeight: Int, maxHeight: Int, stepHeight: Int)

    /// The size in this range nearest to `width`×`height` (by the sum of the differences).
    public func nearest(width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .discrete(let w, let h):
            return (w, h)
        case .stepwise(let minW, let maxW, let stepW, let minH, let maxH, let stepH):
            func fit(_ value: Int, _ low: Int, _ high: Int, _ step: Int) -> Int {
                let clamped = min(max(value, low), high)
                let step = max(step, 1)
                return min(low + ((clamped - low) + step / 2) / step * step, high)
            }
            return (fit(width, minW, maxW, stepW), fit(height, minH, maxH, stepH))
        }
    }
}
