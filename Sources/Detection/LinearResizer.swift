/// Downscales 8-bit images bit-exactly like OpenCV's `cv::resize(..., INTER_LINEAR_EXACT)`,
/// which is what `CascadeClassifier` uses for its pyramid in OpenCV 4.x.
///
/// For each destination column (and row) `f = (d + 0.5)·(src/dst) − 0.5` in `double`, the
/// source index is `floor(f)` and the weights are `256 − w, w` with `w = round(frac(f)·256)`
/// (8 fractional bits). Rows are blended horizontally first (`p0·a0 + p1·a1`), then vertically
/// with rounding: `(h0·b0 + h1·b1 + 2^15) >> 16`. Indices outside the image are clamped.
/// The tables are built once per (source size, destination size) and reused.
struct LinearResizer {
    private(set) var sourceWidth = 0
    private(set) var sourceHeight = 0
    private(set) var width = 0
    private(set) var height = 0
    private var xOffsets: [Int32] = []  // two per column
    private var xWeights: [Int32] = []  // two per column
    private var yOffsets: [Int32] = []  // two per row
    private var yWeights: [Int32] = []  // two per row

    /// Prepares the tables for one source and destination size.
    init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
        (xOffsets, xWeights) = Self.table(source: sourceWidth, destination: width)
        (yOffsets, yWeights) = Self.table(source: sourceHeight, destination: height)
    }

    /// OpenCV's bit-exact linear coefficients for one axis: the two (clamped) source indices
    /// and their two 8-bit weights for each destination index.
    static func table(source: Int, destination: Int) -> ([Int32], [Int32]) {
        var offsets = [Int32](repeating: 0, count: 2 * destination)
        var weights = [Int32](repeating: 0, count: 2 * destination)
        let scale = 1.0 / (Double(destination) / Double(source))
        for d in 0..<destination {
            let f = scale * (Double(d) + 0.5) - 0.5
            let s = f.rounded(.down)
            let w = Int32(((f - s) * 256).rounded(.toNearestOrEven))
            offsets[2 * d] = Int32(min(max(Int(s), 0), source - 1))
            offsets[2 * d + 1] = Int32(min(max(Int(s) + 1, 0), source - 1))
            weights[2 * d] = 256 - w
            weights[2 * d + 1] = w
        }
        return (offsets, weights)
    }

    /// Resizes `source` (which must have the prepared source size) into `destination`,
    /// `width × height` bytes with row stride `width`. `rows` is scratch space for two rows of
    /// horizontal sums (`2 × width` elements or more), kept by the caller.
    func resize(_ source: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutableBufferPointer<UInt8>,
                rows: UnsafeMutableBufferPointer<Int32>) {
        precondition(rows.count >= 2 * width, "row scratch too small")
        let sw = sourceWidth, dw = width
        var r0 = UnsafeMutableBufferPointer(rebasing: rows[0..<dw])
        var r1 = UnsafeMutableBufferPointer(rebasing: rows[dw..<(2 * dw)])
        var row0 = -1, row1 = -1  // source rows currently summed in r0 and r1
        xOffsets.withUnsafeBufferPointer { xo in
            xWeights.withUnsafeBufferPointer { xw in
                for dy in 0..<height {
                    let sy0 = Int(yOffsets[2 * dy]), sy1 = Int(yOffsets[2 * dy + 1])
                    // Reuse rows already summed for the previous output row.
                    if sy0 != row0 {
                        if sy0 == row1 {
                            swap(&r0, &r1)
                            row0 = sy0
                            row1 = -1
                        } else {
                            Self.horizontal(source, row: sy0, width: sw, xo, xw, into: r0)
                            row0 = sy0
                        }
                    }
                    if sy1 != row1 {
                        Self.horizontal(source, row: sy1, width: sw, xo, xw, into: r1)
                        row1 = sy1
                    }
                    let b0 = yWeights[2 * dy], b1 = yWeights[2 * dy + 1]
                    let out = destination.baseAddress! + dy * dw
                    for x in 0..<dw {
                        out[x] = UInt8(clamping: (r0[x] &* b0 &+ r1[x] &* b1 &+ 32768) &>> 16)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func horizontal(_ source: UnsafeBufferPointer<UInt8>, row: Int, width: Int,
                                   _ xo: UnsafeBufferPointer<Int32>, _ xw: UnsafeBufferPointer<Int32>,
                                   into out: UnsafeMutableBufferPointer<Int32>) {
        let src = source.baseAddress! + row * width
        for x in 0..<out.count {
            out[x] = Int32(src[Int(xo[2 * x])]) &* xw[2 * x] &+ Int32(src[Int(xo[2 * x + 1])]) &* xw[2 * x + 1]
        }
    }
}
