/// What VIDIOC_QUERYCAP says about a device node.
public struct DeviceCapabilities: Sendable, Equatable {
    /// The kernel driver, e.g. `uvcvideo`.
    public var driver: String
    /// The device's name, e.g. `Integrated Camera: Integrated C`.
    public var card: String
    /// Where it is attached, e.g. `usb-0000:00:14.0-8`.
    public var busInfo: String
    /// The node's own capabilities (`device_caps` when the driver sets it, else `capabilities`).
    public var capabilities: UInt32

    /// `V4L2_CAP_VIDEO_CAPTURE`.
    public static let videoCapture: UInt32 = 0x0000_0001
    /// `V4L2_CAP_VIDEO_OUTPUT`.
    public static let videoOutput: UInt32 = 0x0000_0002
    /// `V4L2_CAP_META_CAPTURE`: the metadata node a UVC camera has next to its video node.
    public static let metaCapture: UInt32 = 0x0080_0000
    /// `V4L2_CAP_READWRITE`.
    public static let readWrite: UInt32 = 0x0100_0000
    /// `V4L2_CAP_STREAMING`: buffers through REQBUFS/QBUF/DQBUF.
    public static let streaming: UInt32 = 0x0400_0000

    public init(driver: String, card: String, busInfo: String, capabilities: UInt32) {
        self.driver = driver
        self.card = card
        self.busInfo = busInfo
        self.capabilities = capabilities
    }

    /// True when frames can be captured through memory-mapped streaming, as `Camera` does.
    public var isStreamingCapture: Bool {
        capabilities & (Self.videoCapture | Self.streaming) == Self.videoCapture | Self.streaming
    }

    /// Names of the capability bits that are set, for listings.
    public var names: [String] {
        let known: [(UInt32, String)] = [
            (Self.videoCapture, "video-capture"), (Self.videoOutput, "video-output"),
            (0x0000_1000, "video-capture-mplane"), (0x0000_8000, "video-m2m"), (Self.metaCapture, "metadata-capture"),
            (Self.readWrite, "read-write"), (Self.streaming, "streaming"), (0x0020_0000, "extended-pix-format"),
            (0x1000_0000, "touch"), (0x2000_0000, "io-mc"),
        ]
        return known.filter { capabilities & $0.0 != 0 }.map(\.1)
    }
}
