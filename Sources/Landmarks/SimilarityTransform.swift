/// The 2×2 linear part of the least-squares similarity transform that maps one shape onto
/// another (dlib's `find_tform_between_shapes(...).get_m()`, Umeyama 1991 eqs. 34–43).
///
/// For 2-D points Umeyama's SVD solution has a closed form: with the cross-covariance
/// `[[a, b], [c, d]]` of the centred shapes, `c·R = [[a+d, b−c], [c−b, a+d]] / σ²_from`.
/// Sums run in double precision in dlib's order; the result is cast to float as dlib does.
struct SimilarityTransform {
    var m00: Float, m01: Float, m10: Float, m11: Float

    /// The transform from `from` onto `to`; both hold `count` interleaved (x, y) floats.
    init(from: UnsafePointer<Float>, to: UnsafePointer<Float>, count: Int) {
        var meanFromX = 0.0, meanFromY = 0.0, meanToX = 0.0, meanToY = 0.0
        for i in 0..<count {
            meanFromX += Double(from[2 * i]); meanFromY += Double(from[2 * i + 1])
            meanToX += Double(to[2 * i]); meanToY += Double(to[2 * i + 1])
        }
        let n = Double(count)
        meanFromX /= n; meanFromY /= n; meanToX /= n; meanToY /= n
        var sigmaFrom = 0.0
        var a = 0.0, b = 0.0, c = 0.0, d = 0.0
        for i in 0..<count {
            let fx = Double(from[2 * i]) - meanFromX, fy = Double(from[2 * i + 1]) - meanFromY
            let tx = Double(to[2 * i]) - meanToX, ty = Double(to[2 * i + 1]) - meanToY
            sigmaFrom += fx * fx + fy * fy
            a += tx * fx; b += tx * fy
            c += ty * fx; d += ty * fy
        }
        sigmaFrom /= n
        a /= n; b /= n; c /= n; d /= n
        let scale = 1 / sigmaFrom  // the loader rejects a degenerate mean shape
        let cosine = (a + d) * scale, sine = (c - b) * scale
        m00 = Float(cosine); m01 = Float(-sine)
        m10 = Float(sine); m11 = Float(cosine)
    }
}
