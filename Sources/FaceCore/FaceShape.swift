import Foundation

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
        var (right, left) = eyeSums(Double.self)
        right /= 6
        left /= 6
        return (right, left, ((left - right) * (left - right)).sum().squareRoot())
    }

    /// The face's tilt on screen (radians, clockwise positive) from the line between the eye
    /// centres, worked out in `Float` (the tracker's window check); 0 for a shape without eye points.
    public var roll: Double {
        guard count >= 48 else { return 0 }
        let (right, left) = eyeSums(Float.self)
        let d = (left - right) / 6
        return atan2(Double(d.y), Double(d.x))
    }

    /// The sums of each eye's six points, added up in `Scalar`.
    private func eyeSums<Scalar: BinaryFloatingPoint & SIMDScalar>(_: Scalar.Type) -> (right: SIMD2<Scalar>, left: SIMD2<Scalar>) {
        var right = SIMD2<Scalar>.zero, left = SIMD2<Scalar>.zero
        for i in 36...41 { right += SIMD2<Scalar>(points[i]) }
        for i in 42...47 { left += SIMD2<Scalar>(points[i]) }
        return (right, left)
    }
}
