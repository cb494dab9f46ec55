/// One pixel format a device offers (VIDIOC_ENUM_FMT).
public struct FormatDescription: Sendable, Equatable {
    public var fourcc: FourCC
    /// The driver's name for it, e.g. `Motion-JPEG`.
    public var description: String
    /// `V4L2_FMT_FLAG_COMPRESSED`.
    public var compressed: Bool
    /// `V4L2_FMT_FLAG_EMULATED`: libv4l2 converts it in software from another format.
    public var emulated: Bool

    public init(fourcc: FourCC, description: String, compressed: Bool = false, emulated: Bool = false) {
        self.fourcc = fourcc
        self.description = description
        self.compressed = compressed
        self.emulated = emulated
    }
}
