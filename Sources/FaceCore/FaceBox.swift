/// An axis-aligned face box in pixels: `x, y` is the top-left pixel, `width × height` its size.
///
/// In dlib's terms this is `rectangle(x, y, x + width - 1, y + height - 1)` (dlib's right and
/// bottom edges are inclusive).
public struct FaceBox: Hashable, Sendable, Codable, CustomStringConvertible {
    public var x: Int
    public var y: Int
    public var width: Int
    public var height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// dlib's inclusive right edge, `x + width - 1`.
    public var right: Int { x + width - 1 }
    /// dlib's inclusive bottom edge, `y + height - 1`.
    public var bottom: Int { y + height - 1 }
    public var area: Int { max(0, width) * max(0, height) }
    public var centerX: Double { Double(x) + Double(width) / 2 }
    public var centerY: Double { Double(y) + Double(height) / 2 }

    /// Intersection over union with another box (0 when either is empty).
    public func iou(_ other: FaceBox) -> Double {
        let inter = intersection(other)
        let union = area + other.area - inter
        return union > 0 ? Double(inter) / Double(union) : 0
    }

    /// The share of this box's area that lies inside `other` (0 when this box is empty).
    public func fractionInside(_ other: FaceBox) -> Double {
        area > 0 ? Double(intersection(other)) / Double(area) : 0
    }

    private func intersection(_ other: FaceBox) -> Int {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        return ix * iy
    }

    public var description: String { "[\(x), \(y), \(width), \(height)]" }
}
