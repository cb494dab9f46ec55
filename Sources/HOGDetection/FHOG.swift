import CHOGKernels
/// dlib's `extract_fhog_features` (Felzenszwalb et al.'s HOG variant) for a gray image: per
/// cell 18 contrast-sensitive and 9 contrast-insensitive orientation features and 4 texture
/// (gradient energy) features, written into 31 planes padded for a `filterRows × filterCols`
/// filter. Float operations follow dlib's order (its 8-wide path for the columns it vectorizes,
/// its scalar path for the rest), so the features equal dlib's bit for bit.
enum FHOG {
    static let planeCount = 31

    /// The 9 unit vectors dlib snaps gradients to (as floats, as dlib stores them).
    private static let directionX: [Float] = [1.0000, 0.9397, 0.7660, 0.500, 0.1736, -0.1736, -0.5000, -0.7660, -0.9397]
    private static let directionY: [Float] = [0.0000, 0.3420, 0.6428, 0.8660, 0.9848, 0.9848, 0.8660, 0.6428, 0.3420]

    /// Reused storage for one image's features.
    struct Buffers {
        var histogram: [Float] = []
        var norm: [Float] = []
        /// The two histogram rows a band of 8 image rows votes into, interleaved
        /// (`hog_vote_apply`).
        var bandRows: [Float] = []
        /// `planeCount` planes of `rows × columns`, one after the other.
        var planes: [Float] = []
        var votes = ColumnVotes(width: 0)
        var rows = 0
        var columns = 0
        /// The plane rows holding features; the others are zero padding.
        var filledRows = 0..<0
        var planeSize: Int { rows * columns }
    }

    /// Per image column, dlib's vote values, computed once per image instead of per pixel: the
    /// histogram column the column votes into first (`column[x]`) and its two horizontal weights
    /// (vx1, vx0) at `weights[2x]` and `weights[2x + 1]`; and scratch for two rows' prepared votes
    /// (`hog_vote_prepare`): histogram offsets and weighted magnitudes, the second row's `width`
    /// and `2 · width` values on.
    final class ColumnVotes {
        let width: Int
        let column: UnsafeMutablePointer<Int32>
        let weights: UnsafeMutablePointer<Float>
        let index: UnsafeMutablePointer<Int32>
        let weighted: UnsafeMutablePointer<Float>

        init(width: Int) {
            self.width = width
            column = .allocate(capacity: width)
            weights = .allocate(capacity: 2 * width)
            index = .allocate(capacity: 2 * width)
            weighted = .allocate(capacity: 4 * width)
        }

        deinit {
            column.deallocate()
            weights.deallocate()
            index.deallocate()
            weighted.deallocate()
        }
    }

    /// Computes the features of `image` (`width × height`, row-major) into `buffers`. Afterwards
    /// `buffers.rows × buffers.columns` is the padded plane size, 0 × 0 when the image is too
    /// small to hold a feature cell (dlib's empty feature image). `avx2` picks the vote and
    /// normalisation kernels, and `pairedRows` whether two rows' votes interleave (tests compare
    /// both ways).
    static func extract(_ image: UnsafePointer<UInt8>, width: Int, height: Int, cellSize: Int,
                        filterRows: Int, filterColumns: Int, into buffers: inout Buffers, avx2: Bool = CPUFeatures.avx2,
                        pairedRows: Bool = true) {
        buffers.rows = 0
        buffers.columns = 0
        buffers.filledRows = 0..<0
        let cellsRows = Int(Double(Float(height) / Float(cellSize)) + 0.5)
        let cellsColumns = Int(Double(Float(width) / Float(cellSize)) + 0.5)
        let hogRows = cellsRows - 2, hogColumns = cellsColumns - 2
        guard hogRows > 0, hogColumns > 0 else { return }

        let histStride = cellsColumns + 2
        grow(&buffers.histogram, to: (cellsRows + 2) * histStride * 18)
        grow(&buffers.norm, to: cellsRows * cellsColumns)
        let rows = hogRows + filterRows - 1, columns = hogColumns + filterColumns - 1
        // Slack after the last plane for the correlation's 8-wide loads.
        grow(&buffers.planes, to: planeCount * rows * columns + 16)
        buffers.rows = rows
        buffers.columns = columns
        buffers.filledRows = (filterRows - 1) / 2..<((filterRows - 1) / 2 + hogRows)

        prepareVotes(width: width, height: height, cellSize: cellSize, cellsRows: cellsRows, cellsColumns: cellsColumns,
                     into: &buffers)
        accumulateHistograms(image, width: width, height: height, cellSize: cellSize,
                             cellsRows: cellsRows, cellsColumns: cellsColumns, into: &buffers, avx2: avx2,
                             pairedRows: pairedRows)
        buffers.histogram.withUnsafeMutableBufferPointer { histogram in
            let hist = histogram.baseAddress!
            buffers.norm.withUnsafeMutableBufferPointer { normBuffer in
                let norm = normBuffer.baseAddress!
                for r in 0..<cellsRows {
                    let cells = hist + ((r + 1) * histStride + 1) * 18
                    for c in 0..<cellsColumns {
                        let h = cells + 18 * c
                        var sum: Float = 0
                        for o in 0..<9 {
                            let both = h[o] + h[o + 9]
                            sum += both * both
                        }
                        norm[r * cellsColumns + c] = sum
                    }
                }
                buffers.planes.withUnsafeMutableBufferPointer { planes in
                    let out = planes.baseAddress!
                    let rowOffset = (filterRows - 1) / 2, columnOffset = (filterColumns - 1) / 2
                    // Zero padding around the features (writeFeatures fills the rest).
                    for plane in 0..<planeCount {
                        let first = out + plane * rows * columns
                        first.update(repeating: 0, count: rowOffset * columns + columnOffset)
                        for r in rowOffset..<(rowOffset + hogRows) {
                            (first + r * columns + columnOffset + hogColumns).update(repeating: 0, count: columns - hogColumns)
                        }
                        let last = first + (rowOffset + hogRows) * columns
                        last.update(repeating: 0, count: (rows - rowOffset - hogRows) * columns)
                    }
                    writeFeatures(hist: hist, histStride: histStride, norm: norm, normStride: cellsColumns,
                                  hogRows: hogRows, hogColumns: hogColumns, rowOffset: rowOffset, columnOffset: columnOffset,
                                  planes: out, planeColumns: columns, planeSize: rows * columns, avx2: avx2)
                }
            }
        }
    }

    private static func grow(_ buffer: inout [Float], to count: Int) {
        if buffer.count < count { buffer = [Float](repeating: 0, count: count) }
    }

    /// Builds the orientation-bin table now, as part of loading a detector, rather than in the
    /// first frame's scan (it takes a few milliseconds).
    static func prepareTables() {
        _ = bins.count
    }

    /// The orientation bin (0..<18) of every gradient (gx, gy) in -255...255, at
    /// `(gy + 255) · 511 + gx + 255`: dlib's snapping to the nearest of 18 directions, in floats.
    private static let bins: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 511 * 511)
        for gy in -255...255 {
            for gx in -255...255 {
                table[(gy + 255) * 511 + gx + 255] = UInt8(orientationBin(gx: gx, gy: gy))
            }
        }
        return table
    }()

    /// dlib's orientation bin (0..<18) of the gradient (gx, gy): the nearest of 18 directions, the
    /// first of equals, in floats.
    static func orientationBin(gx: Int, gy: Int) -> Int {
        var best: Float = 0
        var bin = 0
        for o in 0..<9 {
            let dot = Float(gx) * directionX[o] + Float(gy) * directionY[o]
            if dot > best {
                best = dot
                bin = o
            } else if -dot > best {
                best = -dot
                bin = o + 9
            }
        }
        return bin
    }

    /// Per image column: the first histogram column it votes into and its weights (vx1, vx0):
    /// the 8-wide path's computed in float, the scalar path's from double.
    private static func prepareVotes(width: Int, height: Int, cellSize: Int, cellsRows: Int, cellsColumns: Int,
                                     into buffers: inout Buffers) {
        let visibleColumns = min(cellsColumns * cellSize, width) - 1
        guard visibleColumns > 1 else { return }
        var blockEnd = 1
        while blockEnd < visibleColumns - 7 { blockEnd += 8 }
        if buffers.votes.width < visibleColumns { buffers.votes = ColumnVotes(width: width) }
        let votes = buffers.votes
        for x in 1..<visibleColumns {
            if x < blockEnd {
                let xp = (Float(x) + 0.5) / Float(cellSize) + 0.5
                let column = Int(xp)
                let vx0 = xp - Float(column)
                votes.column[x] = Int32(column)
                votes.weights[2 * x] = 1 - vx0
                votes.weights[2 * x + 1] = vx0
            } else {
                let xp = Float((Double(x) + 0.5) / Double(cellSize) - 0.5)
                let ixp = Int(xp.rounded(.down))
                let vx0 = xp - Float(ixp)
                votes.column[x] = Int32(ixp + 1)
                votes.weights[2 * x] = Float(1.0 - Double(vx0))
                votes.weights[2 * x + 1] = vx0
            }
        }
    }

    /// Gradient orientation histograms with bilinear voting into the 4 nearest cells. dlib
    /// computes the columns `1, 9, 17, …` below `visibleColumns − 7` eight at a time, with the
    /// horizontal weights in float and the magnitude multiplied in first; the rest one at a time,
    /// weights from double and the magnitude multiplied last. Both orders are kept here.
    ///
    /// The image rows go in bands of 8 that vote into the same two histogram rows, kept
    /// interleaved in `buffers.bandRows` meanwhile, so a pixel's four votes are two 8-byte
    /// additions. When a band ends, its upper row is finished and moves to the histogram, and its
    /// place becomes the next band's lower row. With `pairedRows`, two rows' 8-wide votes
    /// interleave (`hog_vote_apply_pair`). Every sum is the same as dlib's, in its order.
    private static func accumulateHistograms(_ image: UnsafePointer<UInt8>, width: Int, height: Int, cellSize: Int,
                                             cellsRows: Int, cellsColumns: Int, into buffers: inout Buffers, avx2: Bool,
                                             pairedRows: Bool) {
        let histStride = cellsColumns + 2, rowLength = histStride * 18
        let visibleRows = min(cellsRows * cellSize, height) - 1
        let visibleColumns = min(cellsColumns * cellSize, width) - 1
        var blockEnd = 1
        while blockEnd < visibleColumns - 7 { blockEnd += 8 }
        let votes = buffers.votes
        let prepare = avx2 ? hog_vote_prepare_avx2 : hog_vote_prepare
        let vectorCount = max(min(blockEnd, visibleColumns) - 1, 0), lag = Int(HOG_VOTE_LAG)
        grow(&buffers.bandRows, to: 2 * rowLength)
        buffers.histogram.withUnsafeMutableBufferPointer { histogram in
            let hist = histogram.baseAddress!
            guard visibleColumns > 1, visibleRows > 1 else {
                hist.update(repeating: 0, count: (cellsRows + 2) * rowLength)
                return
            }
            buffers.bandRows.withUnsafeMutableBufferPointer { bandRows in
                let pairs = bandRows.baseAddress!
                pairs.update(repeating: 0, count: 2 * rowLength)
                bins.withUnsafeBufferPointer { binTable in
                    let bin = binTable.baseAddress! + 255 * 511 + 255
                    /// Row y's band (its votes go to histogram rows `band + 1` and `band + 2`) and
                    /// vertical weights, in the order of the band's interleaved rows: `vy1` first
                    /// when the upper row is at the even places (`upper` 0).
                    func rowVotes(_ y: Int, upper: Int) -> (band: Int, a: Float, b: Float) {
                        let yp = Float((Double(y) + 0.5) / Double(cellSize) - 0.5)
                        let iyp = Int(yp.rounded(.down))
                        let vy0 = yp - Float(iyp), vy1 = Float(1.0 - Double(vy0))
                        return upper == 0 ? (iyp, vy1, vy0) : (iyp, vy0, vy1)
                    }
                    /// Row y's votes from dlib's scalar path (the columns from `blockEnd`).
                    func scalarVotes(_ y: Int, _ r: (band: Int, a: Float, b: Float)) {
                        let row = image + y * width, above = row - width, below = row + width
                        for x in max(blockEnd, 1)..<max(visibleColumns, blockEnd) {
                            let gx = Int(row[x + 1]) - Int(row[x - 1]), gy = Int(below[x]) - Int(above[x])
                            let v = Float(gx * gx + gy * gy).squareRoot()
                            let w = SIMD2(votes.weights[2 * x], votes.weights[2 * x + 1])  // (vy·vx)·v: the magnitude last
                            let index = 2 * (Int(votes.column[x]) * 18 + Int(bin[gy * 511 + gx]))
                            pairs[index] += r.a * w[0] * v
                            pairs[index + 1] += r.b * w[0] * v
                            pairs[index + 36] += r.a * w[1] * v
                            pairs[index + 37] += r.b * w[1] * v
                        }
                    }
                    let index0 = votes.index, weighted0 = votes.weighted
                    let index1 = votes.index + votes.width, weighted1 = votes.weighted + 2 * votes.width
                    var upper = 0, band = rowVotes(1, upper: upper).band
                    hist.update(repeating: 0, count: (band + 1) * rowLength)  // the rows above the first band's
                    var y = 1
                    while y < visibleRows {
                        let first = rowVotes(y, upper: upper)
                        prepare(image + y * width, width, 1, vectorCount, votes.column, votes.weights, bin, index0, weighted0)
                        let paired = pairedRows && vectorCount > lag && y + 1 < visibleRows
                            && rowVotes(y + 1, upper: upper).band == band
                        if paired {
                            let second = rowVotes(y + 1, upper: upper)
                            prepare(image + (y + 1) * width, width, 1, vectorCount, votes.column, votes.weights, bin, index1,
                                    weighted1)
                            hog_vote_apply_pair(index0, weighted0, vectorCount, first.a, first.b,
                                                index1, weighted1, second.a, second.b, pairs)
                            scalarVotes(y, first)
                            hog_vote_apply(index1, weighted1, vectorCount - lag, vectorCount, second.a, second.b, pairs)
                            scalarVotes(y + 1, second)
                        } else {
                            hog_vote_apply(index0, weighted0, 0, vectorCount, first.a, first.b, pairs)
                            scalarVotes(y, first)
                        }
                        y += paired ? 2 : 1
                        if y >= visibleRows || rowVotes(y, upper: upper).band != band {
                            hog_vote_band_out(pairs, upper, rowLength, hist + (band + 1) * rowLength)
                            upper = 1 - upper
                            band += 1
                        }
                    }
                    // The last band's lower row, and zeros below it.
                    hog_vote_band_out(pairs, upper, rowLength, hist + (band + 1) * rowLength)
                    (hist + (band + 2) * rowLength).update(repeating: 0, count: max(cellsRows - band, 0) * rowLength)
                }
            }
        }
    }

    /// dlib's block normalisation: each cell's histogram clipped and scaled by the energy of the
    /// four 2×2 blocks around it, one SIMD lane per block; with AVX2, eight cells at a time in
    /// `hog_normalise_row_avx2` (one lane per cell, one vector per block), the same float
    /// operations in the same order.
    private static func writeFeatures(hist: UnsafeMutablePointer<Float>, histStride: Int,
                                      norm: UnsafeMutablePointer<Float>, normStride: Int,
                                      hogRows: Int, hogColumns: Int, rowOffset: Int, columnOffset: Int,
                                      planes: UnsafeMutablePointer<Float>, planeColumns: Int, planeSize: Int, avx2: Bool) {
        let eps: Float = 0.0001
        for y in 0..<hogRows {
            let n0 = norm + y * normStride, n1 = n0 + normStride, n2 = n1 + normStride
            let cells = hist + ((y + 2) * histStride + 2) * 18
            let out = planes + (y + rowOffset) * planeColumns + columnOffset
            var x = 0
            if avx2 {
                x = hogColumns / 8 * 8
                hog_normalise_row_avx2(cells, n0, n1, n2, x, out, planeSize)
            }
            while x < hogColumns {
                let z1 = SIMD4<Float>(n1[x + 1], n0[x + 1], n1[x], n0[x])
                let z2 = SIMD4<Float>(n1[x + 2], n0[x + 2], n1[x + 1], n0[x + 1])
                let z3 = SIMD4<Float>(n2[x + 1], n1[x + 1], n2[x], n1[x])
                let z4 = SIMD4<Float>(n2[x + 2], n1[x + 2], n2[x + 1], n1[x + 1])
                let nn = 0.2 * (z1 + z2 + z3 + z4 + eps).squareRoot()
                let n = 0.1 / nn
                let h = cells + 18 * x, out = out + x
                var t = SIMD4<Float>(repeating: 0)
                var o = 0
                while o < 18 {
                    let h0 = pointwiseMin(SIMD4(repeating: h[o]), nn) * n
                    let h1 = pointwiseMin(SIMD4(repeating: h[o + 1]), nn) * n
                    let h2 = pointwiseMin(SIMD4(repeating: h[o + 2]), nn) * n
                    out[o * planeSize] = sum(h0)
                    out[(o + 1) * planeSize] = sum(h1)
                    out[(o + 2) * planeSize] = sum(h2)
                    t += h0 + h1 + h2
                    o += 3
                }
                t *= Float(2 * 0.2357)
                for o in 0..<9 {
                    let both = pointwiseMin(SIMD4(repeating: h[o] + h[o + 9]), nn) * n
                    out[(o + 18) * planeSize] = sum(both)
                }
                out[27 * planeSize] = t[0]
                out[28 * planeSize] = t[1]
                out[29 * planeSize] = t[2]
                out[30 * planeSize] = t[3]
                x += 1
            }
        }
    }

    /// The lane sum in the order SSE4.1's `dpps` adds: (a + b) + (c + d).
    @inline(__always)
    private static func sum(_ v: SIMD4<Float>) -> Float {
        (v[0] + v[1]) + (v[2] + v[3])
    }
}
