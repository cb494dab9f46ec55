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

    public init() {}
}
