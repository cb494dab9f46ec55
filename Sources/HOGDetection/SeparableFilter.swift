/// One rank-one part of a detection filter for one fHOG plane: the filter's response is
/// `Σ_m column[m] · Σ_n row[n] · plane[r − h/2 + m][c − w/2 + n]`.
struct SeparableFilter: Sendable {
    /// The fHOG plane (0..<31) it reads.
    var plane: Int
    /// Along a row (length = filter width).
    var row: [Float]
    /// Down a column (length = filter height).
    var column: [Float]
}

extension SeparableFilter {
    /// dlib's `build_fhog_filterbank` for one plane: the singular value decomposition of the
    /// `height × width` filter `values` (row-major), keeping the parts whose singular value is at
    /// least `max(1e-4, 0.001 × largest)`, each split as `u·√σ` (column) and `v·√σ` (row),
    /// largest first.
    static func decompose(_ values: [Double], height: Int, width: Int, plane: Int) -> [SeparableFilter] {
        // Decompose the taller way round so the Jacobi SVD's rows ≥ columns holds.
        let transposed = height < width
        let (m, n) = transposed ? (width, height) : (height, width)
        let input = transposed ? (0..<(m * n)).map { values[($0 % n) * width + $0 / n] } : values
        let (left, sigma, right) = singularValueDecomposition(input, rows: m, columns: n)
        // u: height × k and v: width × k, both with row stride n.
        let (u, v) = transposed ? (right, left) : (left, right)
        let threshold = max(1e-4, (sigma.max() ?? 0) * 0.001)
        var parts: [SeparableFilter] = []
        for j in sigma.indices.sorted(by: { sigma[$0] > sigma[$1] }) where sigma[j] >= threshold {
            let scale = sigma[j].squareRoot()
            parts.append(SeparableFilter(plane: plane,
                                         row: (0..<width).map { Float(v[$0 * n + j] * scale) },
                                         column: (0..<height).map { Float(u[$0 * n + j] * scale) }))
        }
        return parts
    }

    /// One-sided Jacobi SVD of a `rows × columns` row-major matrix (`rows ≥ columns`):
    /// returns U (`rows × columns`), the singular values and V (`columns × columns`), row-major.
    static func singularValueDecomposition(_ a: [Double], rows m: Int, columns n: Int) -> ([Double], [Double], [Double]) {
        precondition(m >= n && a.count == m * n)
        var a = a
        var v = [Double](repeating: 0, count: n * n)
        for i in 0..<n { v[i * n + i] = 1 }
        for _ in 0..<60 {
            var rotated = false
            for p in 0..<n {
                for q in (p + 1)..<max(p + 1, n) {
                    var alpha = 0.0, beta = 0.0, gamma = 0.0
                    for i in 0..<m {
                        let x = a[i * n + p], y = a[i * n + q]
                        alpha += x * x
                        beta += y * y
                        gamma += x * y
                    }
                    guard gamma != 0, abs(gamma) > 1e-15 * (alpha * beta).squareRoot() else { continue }
                    rotated = true
                    let zeta = (beta - alpha) / (2 * gamma)
                    let t = (zeta >= 0 ? 1.0 : -1.0) / (abs(zeta) + (1 + zeta * zeta).squareRoot())
                    let c = 1 / (1 + t * t).squareRoot(), s = c * t
                    for i in 0..<m {
                        let x = a[i * n + p], y = a[i * n + q]
                        a[i * n + p] = c * x - s * y
                        a[i * n + q] = s * x + c * y
                    }
                    for i in 0..<n {
                        let x = v[i * n + p], y = v[i * n + q]
                        v[i * n + p] = c * x - s * y
                        v[i * n + q] = s * x + c * y
                    }
                }
            }
            if !rotated { break }
        }
        var sigma = [Double](repeating: 0, count: n)
        for j in 0..<n {
            var norm = 0.0
            for i in 0..<m { norm += a[i * n + j] * a[i * n + j] }
            norm = norm.squareRoot()
            sigma[j] = norm
            if norm > 0 { for i in 0..<m { a[i * n + j] /= norm } }
        }
        return (a, sigma, v)
    }
}
