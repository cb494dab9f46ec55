import FaceCore
import Foundation

/// Head pose from 2D landmarks by a scaled-orthographic (weak-perspective) fit of
/// `GenericFaceModel`.
///
/// The centred image points `q` are fitted by `q ≈ M · P` with a 2×3 matrix `M` in the least-squares
/// sense (`M = Q Pᵀ (P Pᵀ)⁻¹`, the 3×N pseudo-inverse of the centred model is precomputed). The
/// rows of `M` are the first two rows of a scaled rotation; they are made orthonormal symmetrically,
/// the third row is their cross product, and the angles are read out as documented on `HeadPose`.
/// Perspective is ignored: at a normal webcam distance (face ≈ 1/4 of the frame width) this costs
/// 1–3°. Estimating needs no allocation.
public struct HeadPoseEstimator: Sendable {
    /// Pseudo-inverse of the centred model, one SIMD3 column per model point: `Pᵀ (P Pᵀ)⁻¹`.
    private let pinv: [SIMD3<Double>]
    private let indices: [Int]

    public init() {
        indices = GenericFaceModel.indices
        let model = GenericFaceModel.points
        let mean = model.reduce(SIMD3<Double>(repeating: 0), +) / Double(model.count)
        let centred = model.map { $0 - mean }
        // A = P Pᵀ (3×3, symmetric), stored by rows.
        var a0 = SIMD3<Double>(repeating: 0), a1 = a0, a2 = a0
        for p in centred {
            a0 += p * p.x
            a1 += p * p.y
            a2 += p * p.z
        }
        let inv = Self.inverse(a0, a1, a2)
        pinv = centred.map { p in
            SIMD3((inv.0 * p).sum(), (inv.1 * p).sum(), (inv.2 * p).sum())
        }
    }

    /// The pose of a 68-point shape (pixels). The shape must hold 68 points.
    public func estimate(_ p: UnsafeBufferPointer<SIMD2<Float>>) -> HeadPose {
        var mean = SIMD2<Double>(0, 0)
        for i in indices { mean += SIMD2<Double>(p[i]) }
        mean /= Double(indices.count)
        var r1 = SIMD3<Double>(repeating: 0), r2 = r1
        for k in 0..<indices.count {
            let q = SIMD2<Double>(p[indices[k]]) - mean
            r1 += pinv[k] * q.x
            r2 += pinv[k] * q.y
        }
        let n1 = length(r1), n2 = length(r2)
        guard n1 > 1e-12, n2 > 1e-12 else { return HeadPose(yaw: 0, pitch: 0, roll: 0) }
        // Symmetric orthonormalisation of the two rows.
        let u = r1 / n1, v = r2 / n2
        let c = u + v, d = u - v
        let cn = c / max(length(c), 1e-12), dn = d / max(length(d), 1e-12)
        let x = (cn + dn) / 2.squareRoot()
        let y = (cn - dn) / 2.squareRoot()
        let z = SIMD3(x.y * y.z - x.z * y.y, x.z * y.x - x.x * y.z, x.x * y.y - x.y * y.x)
        // R = Rz·Rx·Ry: third row (cp·sy, −sp, cp·cy); R[0][1] = −sr·cp, R[1][1] = cr·cp.
        let degrees = 180 / Double.pi
        let pitch = asin(min(max(-z.y, -1), 1))
        let yaw = atan2(z.x, z.z)
        let roll = atan2(-x.y, y.y)
        return HeadPose(yaw: yaw * degrees, pitch: pitch * degrees, roll: roll * degrees)
    }

    /// The pose of a `FaceShape` with 68 points.
    public func estimate(_ shape: FaceShape) throws -> HeadPose {
        guard shape.count == 68 else { throw ExpressionError.wrongPointCount(shape.count) }
        return shape.points.withUnsafeBufferPointer { estimate($0) }
    }

    private func length(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }

    private static func inverse(_ r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>)
        -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)
    {
        // Rows of the inverse = columns of the adjugate / det; for a symmetric matrix the cross
        // products of the rows give them directly.
        let c0 = cross(r1, r2), c1 = cross(r2, r0), c2 = cross(r0, r1)
        let det = (r0 * c0).sum()
        return (c0 / det, c1 / det, c2 / det)
    }

    private static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }
}
