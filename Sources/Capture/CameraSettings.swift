/// What `Camera` asks the device for. The device may grant something else (see `Camera.format`).
public struct CameraSettings: Sendable, Equatable {
    /// A V4L2 node such as `/dev/video0`, or `emulated:RECORDING` for a recording played as a camera.
    public var device: String
    public var width: Int
    public var height: Int
    public var fps: Double
    /// The pixel format to capture, or nil to choose automatically (see `FormatNegotiation`).
    public var format: FourCC?
    /// Memory-mapped buffers to ask for.
    public var buffers: Int
    /// Seconds `nextFrame()` waits for a frame before it reports a timeout.
    public var pollTimeout: Double

    public init(device: String = "/dev/video0", width: Int = 640, height: Int = 480, fps: Double = 30,
                buffers: Int = 4, pollTimeout: Double = 2, format: FourCC? = nil) {
        self.device = device
        self.width = width
        self.height = height
        self.fps = fps
        self.format = format
        self.buffers = buffers
        self.pollTimeout = pollTimeout
    }
}
