/// The format a device has set (VIDIOC_S_FMT / VIDIOC_G_FMT): what its buffers hold.
public struct PixelLayout: Sendable, Equatable {
    public var fourcc: FourCC
    public var width: Int
    public var height: Int
    /// Bytes from one row to the next for uncompressed formats (0 for compressed ones).
    public var bytesPerLine: Int
    /// The most bytes a frame can take.
    public var sizeImage: Int

    public init(fourcc: FourCC, width: Int, height: Int, bytesPerLine: Int, sizeImage: Int) {
        self.fourcc = fourcc
        self.width = width
        self.height = height
        self.bytesPerLine = bytesPerLine
        self.sizeImage = sizeImage
    }
}
