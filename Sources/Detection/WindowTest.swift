/// Four corner offsets into an integral image: the area sum is `s[p0] − s[p1] − s[p2] + s[p3]`.
struct SumCorners {
    var p0: Int32
    var p1: Int32
    var p2: Int32
    var p3: Int32

    init(p0: Int, p1: Int, p2: Int, p3: Int) {
        self.p0 = Int32(p0)
        self.p1 = Int32(p1)
        self.p2 = Int32(p2)
        self.p3 = Int32(p3)
    }

    /// Upright rectangle `(x, y, w, h)` in a plane with row `stride`.
    init(x: Int, y: Int, width: Int, height: Int, stride: Int) {
        self.init(p0: y * stride + x, p1: y * stride + x + width,
                  p2: (y + height) * stride + x, p3: (y + height) * stride + x + width)
    }

    /// 45° rectangle as OpenCV's `CV_TILTED_OFS`, in the tilted plane at `offset`.
    init(tiltedX x: Int, y: Int, width: Int, height: Int, stride: Int, offset: Int) {
        self.init(p0: offset + x + stride * y, p1: offset + x - height + stride * (y + height),
                  p2: offset + x + width + stride * (y + width),
                  p3: offset + x + width - height + stride * (y + width + height))
    }

    @inline(__always)
    func sum(_ s: UnsafePointer<Int32>) -> Int32 {
        s[Int(p0)] &- s[Int(p1)] &- s[Int(p2)] &+ s[Int(p3)]
    }
}

/// The test at one split node of a compiled cascade, evaluated on a window whose top-left
/// corner is at `window` in the integral image.
protocol WindowTest {
    /// Haar cascades normalise feature values by the window's standard deviation.
    static var usesVarianceNormalization: Bool { get }
    /// True to go to the node's left child (or left leaf value).
    func goesLeft(_ window: UnsafePointer<Int32>, normalization: Float) -> Bool
}

/// A Haar feature with its node threshold: `Σ wᵢ·sumᵢ · norm < threshold`, in `float` like
/// OpenCV's `HaarEvaluator::OptFeature::calc`.
struct HaarTest: WindowTest {
    var r0: SumCorners
    var r1: SumCorners
    var r2: SumCorners
    var w0: Float
    var w1: Float
    var w2: Float
    var threshold: Float

    static var usesVarianceNormalization: Bool { true }

    @inline(__always)
    func goesLeft(_ window: UnsafePointer<Int32>, normalization: Float) -> Bool {
        var value = w0 * Float(r0.sum(window)) + w1 * Float(r1.sum(window))
        if w2 != 0 { value += w2 * Float(r2.sum(window)) }
        return value * normalization < threshold
    }
}

/// An LBP feature with its 256-bit category subset, as OpenCV's `LBPEvaluator::OptFeature`:
/// the 8 outer blocks of a 3×3 grid are compared (`>=`) with the centre block, clockwise from
/// the top-left block (bit 7) to the middle-left block (bit 0).
struct LBPTest: WindowTest {
    /// Offsets of the 4×4 block-corner grid, row by row.
    var corners: (SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>)
    var subset: SIMD8<UInt32>

    static var usesVarianceNormalization: Bool { false }

    @inline(__always)
    func goesLeft(_ window: UnsafePointer<Int32>, normalization: Float) -> Bool {
        @inline(__always) func load(_ row: SIMD4<Int32>) -> SIMD4<Int32> {
            SIMD4(window[Int(row[0])], window[Int(row[1])], window[Int(row[2])], window[Int(row[3])])
        }
        let g0 = load(corners.0), g1 = load(corners.1), g2 = load(corners.2), g3 = load(corners.3)
        // Block sums of each block row: columns (0,1,2) of the 3×3 grid.
        let top = g0 &- g1
        let middle = g1 &- g2
        let bottom = g2 &- g3
        @inline(__always) func block(_ d: SIMD4<Int32>, _ i: Int) -> Int32 { d[i] &- d[i + 1] }
        let centre = block(middle, 1)
        var code = 0
        if block(top, 0) >= centre { code |= 128 }
        if block(top, 1) >= centre { code |= 64 }
        if block(top, 2) >= centre { code |= 32 }
        if block(middle, 2) >= centre { code |= 16 }
        if block(bottom, 2) >= centre { code |= 8 }
        if block(bottom, 1) >= centre { code |= 4 }
        if block(bottom, 0) >= centre { code |= 2 }
        if block(middle, 0) >= centre { code |= 1 }
        return subset[code >> 5] & (1 << UInt32(code & 31)) != 0
    }
}
