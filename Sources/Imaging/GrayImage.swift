/// An 8-bit grayscale image with contiguous, row-major storage (stride == width).
///
/// This is the image type every stage after decoding works on. Its storage can be reused
/// from frame to frame: `resize(width:height:)` keeps the allocation when the size is unchanged.
public struct GrayImage: Sendable, Equatable {
    public private(set) var width: Int
    public private(set) var height: Int
    /// Pixels, `width * height` bytes, row after row.
    public var pixels: [UInt8]

    /// Creates an image filled with `value`.
    public init(width: Int, height: Int, fill value: UInt8 = 0) {
        precondition(width >= 0 && height >= 0, "image size must not be negative")
        self.width = width
        self.height = height
        self.pixels = [UInt8](repeating: value, count: width * height)
    }

    /// Wraps existing pixels; `pixels.count` must equal `width * height`.
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// True when the image has no pixels.
    public var isEmpty: Bool { width == 0 || height == 0 }

    /// Changes the size, keeping the allocation when the pixel count is unchanged.
    /// Pixel contents are unspecified afterwards.
    public mutating func resize(width: Int, height: Int) {
        if width * height != pixels.count {
            pixels = [UInt8](repeating: 0, count: width * height)
        }
        self.width = width
        self.height = height
    }

    /// The pixel at (x, y); both must be inside the image.
    @inlinable
    public subscript(x: Int, y: Int) -> UInt8 {
        get { pixels[y * width + x] }
        set { pixels[y * width + x] = newValue }
    }
}
