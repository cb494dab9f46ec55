/// The `camera` section of `config.json`: which device and what to ask of it.
public struct CameraConfiguration: Sendable, Equatable {
    /// A V4L2 node, or `emulated:RECORDING` to play a recording folder as a camera.
    public var device = "/dev/video0"
    public var width = 640
    public var height = 480
    public var fps = 30.0
    /// The pixel format to capture: "auto" (the default: MJPG, JPEG, YUYV, GREY ranked, the
    /// nearest frame size first; `facewatch devices` shows the choice), or "mjpg", "yuyv", "grey".
    public var format = "auto"
    /// The values `format` takes.
    public static let formats = ["auto", "mjpg", "yuyv", "grey"]
    /// Memory-mapped capture buffers.
    public var buffers = 4
    /// Seconds to wait for a frame before reporting a timeout.
    public var pollTimeout = 2.0
    /// Seconds to keep reopening an unplugged camera before giving up (exit 1).
    public var reconnectFor = 60.0

    /// The values each setting may take, in `config.json` and on the command line alike.
    public static let sides = 16...8192
    public static let rates = 1.0...240.0
    public static let bufferCounts = 2...32
    public static let pollTimeouts = 0.05...60.0
    public static let reconnectTimes = 0.0...86_400.0

    public init() {}
}
