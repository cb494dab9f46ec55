/// dlib's `test_box_overlap`: two boxes overlap when their intersection is more than
/// `iouThreshold` of their bounding box (dlib divides by the box spanning both, not the union)
/// or more than `coveredThreshold` of either box.
struct BoxOverlap: Sendable, Equatable {
    var iouThreshold: Double
    var coveredThreshold: Double

    func overlaps(_ a: FaceDetection, _ b: FaceDetection) -> Bool {
        let inner = Self.area(max(a.left, b.left), max(a.top, b.top), min(a.right, b.right), min(a.bottom, b.bottom))
        guard inner > 0 else { return false }
        let outer = Self.area(min(a.left, b.left), min(a.top, b.top), max(a.right, b.right), max(a.bottom, b.bottom))
        let (inner64, areaA, areaB) = (Double(inner), Double(Self.area(a.left, a.top, a.right, a.bottom)),
                                       Double(Self.area(b.left, b.top, b.right, b.bottom)))
        return inner64 / Double(outer) > iouThreshold || inner64 / areaA > coveredThreshold || inner64 / areaB > coveredThreshold
    }

    /// dlib's `rectangle::area()`: 0 for an empty rectangle.
    private static func area(_ left: Int, _ top: Int, _ right: Int, _ bottom: Int) -> Int {
        right < left || bottom < top ? 0 : (right - left + 1) * (bottom - top + 1)
    }
}
