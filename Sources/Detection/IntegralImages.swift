/// The integral images a cascade reads, in buffers reused from level to level and frame to
/// frame.
///
/// All planes share one row stride (the widest level's width + 1) so feature offsets compiled
/// once stay valid for every pyramid level. Like OpenCV (`integral(..., CV_32S, CV_32S)`):
/// - `sums` plane 0: `sum(X, Y)` = Σ pixels with x < X, y < Y (32-bit);
/// - `sums` plane 1 (tilted cascades only, at `tiltedOffset`): the 45° integral
///   `tilted(X, Y)` = Σ pixels with y < Y and |x − X + 1| ≤ Y − y − 1;
/// - `squares`: Σ pixel² with wrap-around 32-bit arithmetic (window differences stay exact).
struct IntegralImages {
    private(set) var stride = 0
    private(set) var rows = 0
    private(set) var sums: [Int32] = []
    private(set) var squares: [UInt32] = []
    let includesSquares: Bool
    let includesTilted: Bool
    private var rowPrefix: [Int32] = []
    private var antiDiagonal: [Int32] = []
    private var diagonal: [Int32] = []

    init(includesSquares: Bool, includesTilted: Bool) {
        self.includesSquares = includesSquares
        self.includesTilted = includesTilted
    }

    /// Offset of the tilted plane in `sums`.
    var tiltedOffset: Int { stride * rows }

    /// Sizes the buffers for levels up to `maxWidth × maxHeight` (keeps them when unchanged).
    mutating func reserve(maxWidth: Int, maxHeight: Int) {
        stride = maxWidth + 1
        rows = maxHeight + 1
        let plane = stride * rows
        let sumCount = includesTilted ? 2 * plane : plane
        if sums.count != sumCount { sums = [Int32](repeating: 0, count: sumCount) }
        if includesSquares, squares.count != plane { squares = [UInt32](repeating: 0, count: plane) }
        if includesTilted {
            rowPrefix = [Int32](repeating: 0, count: maxWidth + 1)
            antiDiagonal = [Int32](repeating: 0, count: maxWidth + maxHeight + 1)
            diagonal = [Int32](repeating: 0, count: maxWidth + maxHeight + 1)
        }
    }

    /// Computes the planes of a `width × height` image (row stride `width`).
    mutating func compute(_ image: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        precondition(width < stride && height < rows, "reserve() was not called for this size")
        let stride = self.stride
        let withSquares = includesSquares
        sums.withUnsafeMutableBufferPointer { sumBuffer in
            squares.withUnsafeMutableBufferPointer { squareBuffer in
                let sum = sumBuffer.baseAddress!
                for x in 0...width { sum[x] = 0 }
                if withSquares { for x in 0...width { squareBuffer[x] = 0 } }
                for y in 0..<height {
                    let src = image.baseAddress! + y * width
                    let above = sum + y * stride
                    let row = above + stride
                    row[0] = 0
                    var rowSum: Int32 = 0
                    for x in 0..<width {
                        rowSum &+= Int32(src[x])
                        row[x + 1] = above[x + 1] &+ rowSum
                    }
                    if withSquares {
                        let sqAbove = squareBuffer.baseAddress! + y * stride
                        let sqRow = sqAbove + stride
                        sqRow[0] = 0
                        var rowSquares: UInt32 = 0
                        for x in 0..<width {
                            let v = UInt32(src[x])
                            rowSquares &+= v &* v
                            sqRow[x + 1] = sqAbove[x + 1] &+ rowSquares
                        }
                    }
                }
            }
        }
        if includesTilted { computeTilted(image, width: width, height: height) }
    }

    /// The tilted integral as a difference of two running sums of row prefix sums, one along
    /// anti-diagonals (c = X + Y − 1) and one along diagonals (d = X − Y):
    /// `tilted(X, Y) = A_Y[X + Y − 1] − B_Y[X − Y]`, where row y < Y contributes
    /// `prefix_y(X + Y − 1 − y) − prefix_y(X − Y + y)` (prefix clamped to the row).
    private mutating func computeTilted(_ image: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        let stride = self.stride, offset = tiltedOffset
        let span = width + height + 1
        sums.withUnsafeMutableBufferPointer { sumBuffer in
            rowPrefix.withUnsafeMutableBufferPointer { prefix in
                antiDiagonal.withUnsafeMutableBufferPointer { a in
                    diagonal.withUnsafeMutableBufferPointer { b in
                        let tilted = sumBuffer.baseAddress! + offset
                        for i in 0..<span {
                            a[i] = 0
                            b[i] = 0
                        }
                        for x in 0...width { tilted[x] = 0 }
                        @inline(__always) func clampedPrefix(_ at: Int) -> Int32 {
                            at <= 0 ? 0 : prefix[min(at, width)]
                        }
                        for y in 0..<height {
                            let src = image.baseAddress! + y * width
                            prefix[0] = 0
                            for x in 0..<width { prefix[x + 1] = prefix[x] &+ Int32(src[x]) }
                            // a[i] holds A at c = i − 1; b[i] holds B at d = i − height.
                            for i in 0..<span {
                                a[i] &+= clampedPrefix(i - 1 - y)
                                b[i] &+= clampedPrefix(i - height + y)
                            }
                            let bigY = y + 1
                            let row = tilted + bigY * stride
                            for x in 0...width {
                                row[x] = a[x + bigY] &- b[x - bigY + height]
                            }
                        }
                    }
                }
            }
        }
    }
}
