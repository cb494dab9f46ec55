/// What a camera actually granted after negotiation.
public struct CaptureFormat: Sendable, Equatable, CustomStringConvertible {
    /// The buffers' layout: pixel format, size, row stride.
    public var layout: PixelLayout
    /// The granted frame interval, or nil when the driver has no frame-rate control.
    public var interval: FrameInterval?

    public init(layout: PixelLayout, interval: FrameInterval?) {
        self.layout = layout
        self.interval = interval
    }

    public var pixelFormat: FourCC { layout.fourcc }
    public var width: Int { layout.width }
    public var height: Int { layout.height }
    /// Frames per second granted, or nil when unknown.
    public var fps: Double? { interval?.fps }

    public var description: String {
        let rate = fps.map { $0 == $0.rounded() ? "\(Int($0)) fps" : "\($0) fps" } ?? "driver's frame rate"
        return "\(pixelFormat) \(width)×\(height) at \(rate)"
    }
}
