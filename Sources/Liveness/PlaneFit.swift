import FaceCore

/// How far a face's landmarks moved out of a plane between two frames.
///
/// A printed photo or a phone screen, however it is held, moved or turned, is a plane: the image
/// of its points in one frame maps onto their image in another by a homography. A head turning
/// or nodding is not: the nose tip swings one way and the jaw line the other. `residual` fits the
/// best homography (least squares, on normalised coordinates) from the first shape's rigid points
/// (jaw, brows, nose, eye corners: not the lids or the mouth, which a live face moves anyway) to
/// the second's, and returns the RMS distance left over, in inter-ocular distances.
public enum PlaneFit {
    /// The points a homography is fitted to: jaw line 0–16, brows 17–26, nose 27–35 and the four
    /// eye corners.
    static let rigidPoints: [Int] = Array(0...35) + [36, 39, 42, 45]

    /// The RMS residual of the best homography from `a` to `b`, in inter-ocular distances of `b`;
    /// nil when the shapes are not 68-point shapes or the fit is degenerate.
    public static func residual(from a: FaceShape, to b: FaceShape) -> Double? {
        guard a.count == 68, b.count == 68 else { return nil }
        let source = rigidPoints.map { SIMD2<Double>(a[$0]) }
        let target = rigidPoints.map { SIMD2<Double>(b[$0]) }
        let (sourceNorm, sourceScale) = normalise(source)
        let (targetNorm, targetScale) = normalise(target)
        guard sourceScale > 0, targetScale > 0, let h = homography(sourceNorm, targetNorm) else { return nil }
        var squared = 0.0
        for (p, q) in zip(sourceNorm, targetNorm) {
            let w = h[6] * p.x + h[7] * p.y + 1
            guard abs(w) > 1e-9 else { return nil }
            let u = (h[0] * p.x + h[1] * p.y + h[2]) / w, v = (h[3] * p.x + h[4] * p.y + h[5]) / w
            squared += (u - q.x) * (u - q.x) + (v - q.y) * (v - q.y)
        }
        let rms = (squared / Double(source.count)).squareRoot() / targetScale
        guard let iod = b.eyes?.distance, iod > 0 else { return nil }
        return rms / iod
    }

    /// The points moved to their centroid and scaled to a mean distance of √2 from it (Hartley's
    /// normalisation), and the scale that was applied.
    private static func normalise(_ points: [SIMD2<Double>]) -> ([SIMD2<Double>], Double) {
        let centre = points.reduce(.zero, +) / Double(points.count)
        let mean = points.reduce(0) { $0 + (($1 - centre) * ($1 - centre)).sum().squareRoot() } / Double(points.count)
        guard mean > 0 else { return (points, 0) }
        let scale = 2.0.squareRoot() / mean
        return (points.map { ($0 - centre) * scale }, scale)
    }

    /// The homography (h33 = 1) taking `p` to `q` in the least-squares sense of the linear
    /// equations, by the 8×8 normal equations.
    private static func homography(_ p: [SIMD2<Double>], _ q: [SIMD2<Double>]) -> [Double]? {
        var ata = [Double](repeating: 0, count: 64), atb = [Double](repeating: 0, count: 8)
        func add(_ row: [Double], _ value: Double) {
            for i in 0..<8 {
                atb[i] += row[i] * value
                for j in 0..<8 { ata[i * 8 + j] += row[i] * row[j] }
            }
        }
        for (a, b) in zip(p, q) {
            add([a.x, a.y, 1, 0, 0, 0, -b.x * a.x, -b.x * a.y], b.x)
            add([0, 0, 0, a.x, a.y, 1, -b.y * a.x, -b.y * a.y], b.y)
        }
        return solve(ata, atb, n: 8)
    }

    /// Gaussian elimination with partial pivoting; nil for a singular system.
    private static func solve(_ matrix: [Double], _ vector: [Double], n: Int) -> [Double]? {
        var m = matrix, v = vector
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(m[$0 * n + column]) < abs(m[$1 * n + column]) }),
                  abs(m[pivot * n + column]) > 1e-12 else { return nil }
            if pivot != column {
                for j in 0..<n { m.swapAt(pivot * n + j, column * n + j) }
                v.swapAt(pivot, column)
            }
            for row in (column + 1)..<n {
                let factor = m[row * n + column] / m[column * n + column]
                guard factor != 0 else { continue }
                for j in column..<n { m[row * n + j] -= factor * m[column * n + j] }
                v[row] -= factor * v[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            var sum = v[row]
            for j in (row + 1)..<n { sum -= m[row * n + j] * x[j] }
            x[row] = sum / m[row * n + row]
        }
        return x
    }
}
