/// The landmarks of one face as sub-pixel image coordinates (68 points for the iBUG model:
/// jaw 0–16, brows 17–26, nose 27–35 with the tip at 30, the person's right eye 36–41,
/// left eye 42–47, outer lips 48–59, inner lips 60–67).
public struct FaceShape: Sendable, Equatable {
    /// Points in pixels, x to the right and y down.
    public var points: [SIMD2<Float>]

    public init(points: [SIMD2<Float>]) {
        self.points = points
    }

    public var count: Int { points.count }

    @inlinable
    public subscript(index: Int) -> SIMD2<Float> { points[index] }

    /// The points as dlib reports them: each coordinate rounded with `floor(v + 0.5)`.
    public var dlibRounded: [SIMD2<Int>] {
        points.map { SIMD2(Int(($0.x + 0.5).rounded(.down)), Int(($0.y + 0.5).rounded(.down))) }
    }

    /// The centres of the six points of each eye (36–41: the person's right, 42–47: the left),
    /// and the inter-ocular distance between them; nil for a shape without eye points.
    public var eyes: (right: SIMD2<Double>, left: SIMD2<Double>, distance: Double)? {
        guard count >= 48 else { return nil }
        var right = SIMD2<Double>.zero, left = SIMD2<Double>.zero
        for i in 36...41 { right += SIMD2<Double>(points[i]) }
        for i in 42...47 { left += SIMD2<Double>(points[i]) }
        right /= 6
        left /= 6
        return (right, left, ((left - right) * (left - right)).sum().squareRoot())
    }
}
