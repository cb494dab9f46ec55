/// A rectangle of whole pixels in an image: columns `x ..< x + width`, rows `y ..< y + height`.
///
/// It says which part of a frame a stage reads, so that the decoder can leave the rest of a
/// large frame undecoded (`JPEGDecoder.decode(_:into:region:)`).
public struct PixelRegion: Sendable, Equatable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The whole of a `width` × `height` image.
    public static func whole(width: Int, height: Int) -> PixelRegion {
        PixelRegion(x: 0, y: 0, width: width, height: height)
    }

    /// The smallest region around the points from (`minX`, `minY`) to (`maxX`, `maxY`), both
    /// included, each rounded outwards to whole pixels.
    public init(minX: Double, minY: Double, maxX: Double, maxY: Double) {
        let left = Int(minX.rounded(.down)), top = Int(minY.rounded(.down))
        self.init(x: left, y: top, width: Int(maxX.rounded(.down)) - left + 1, height: Int(maxY.rounded(.down)) - top + 1)
    }

    public var isEmpty: Bool { width == 0 || height == 0 }
    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var area: Int { width * height }

    /// The smallest region holding both (an empty region adds nothing).
    public func union(_ other: PixelRegion) -> PixelRegion {
        if isEmpty { return other }
        if other.isEmpty { return self }
        let left = min(x, other.x), top = min(y, other.y)
        return PixelRegion(x: left, y: top, width: max(maxX, other.maxX) - left, height: max(maxY, other.maxY) - top)
    }

    /// The part inside a `width` × `height` image.
    public func clipped(width imageWidth: Int, height imageHeight: Int) -> PixelRegion {
        let left = max(0, x), top = max(0, y)
        return PixelRegion(x: left, y: top, width: min(maxX, imageWidth) - left, height: min(maxY, imageHeight) - top)
    }

    /// Whether every pixel of `other` is in this region (an empty one always is).
    public func contains(_ other: PixelRegion) -> Bool {
        other.isEmpty || (other.x >= x && other.y >= y && other.maxX <= maxX && other.maxY <= maxY)
    }

    public var description: String { "\(width)×\(height) at (\(x), \(y))" }
}
