/// An 8-bit interleaved RGB image (3 bytes per pixel, row-major), used for drawing
/// overlays that a person looks at; the analysis stages work on `GrayImage`.
public struct RGBImage: Sendable, Equatable {
    public let width: Int
    public let height: Int
    /// `width * height * 3` bytes, R, G, B per pixel.
    public var pixels: [UInt8]

    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(pixels.count == width * height * 3, "pixel count does not match the size")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// A color copy of a gray image.
    public init(gray: GrayImage) {
        width = gray.width
        height = gray.height
        var rgb = [UInt8](repeating: 0, count: gray.pixels.count * 3)
        for (i, v) in gray.pixels.enumerated() {
            rgb[3 * i] = v
            rgb[3 * i + 1] = v
            rgb[3 * i + 2] = v
        }
        pixels = rgb
    }
}
