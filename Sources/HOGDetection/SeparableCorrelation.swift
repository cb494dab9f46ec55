import CHOGKernels

/// dlib's `float_spatially_filter_image_separable` with `add_to`: a row pass over every row
/// into `scratch`, then a column pass added into `output` (or written there, for a filter's first
/// part) over the rows and columns the filter fully covers (the others hold unspecified values).
/// 32 columns at a time in independent accumulators (the sums' float rounding differs from
/// dlib's in the last bits; scores agree to ~1e-6). On CPUs with AVX2 and FMA the C kernel of
/// `CHOGKernels` does the same with fused multiply-adds.
enum SeparableCorrelation {
    /// The scratch values `apply` needs for `rows × columns` inputs.
    static func scratchCount(rows: Int, columns: Int) -> Int {
        rows * scratchStride(columns) + 8
    }

    /// Scratch rows hold the covered columns only, from their first value, and are a whole
    /// number of 8-float vectors long: with `scratch` on a 32-byte boundary the column pass's
    /// loads never straddle two cache lines.
    private static func scratchStride(_ columns: Int) -> Int {
        (columns + 7) / 8 * 8
    }

    /// Zeroes the rows of `scratch` outside `filledRows` (and its slack), which `apply` reads and
    /// never writes: once for all the filters applied to planes of `rows × columns` features.
    static func clearPadding(_ scratch: UnsafeMutablePointer<Float>, rows: Int, columns: Int, filledRows: Range<Int>) {
        let stride = scratchStride(columns)
        let filled = filledRows.clamped(to: 0..<rows)
        scratch.update(repeating: 0, count: filled.lowerBound * stride)
        (scratch + filled.upperBound * stride).update(repeating: 0, count: (rows - filled.upperBound) * stride + 8)
    }

    /// The scratch values `apply` needs for a group of `parts` parts on `rows × columns` inputs:
    /// one `scratchCount` area per part, each on a 32-byte boundary when the first is.
    static func scratchCount(parts: Int, rows: Int, columns: Int) -> Int {
        parts * scratchCount(rows: rows, columns: columns)
    }

    /// `clearPadding` for each of the `parts` scratch areas of `scratchCount(parts:rows:columns:)`.
    static func clearPadding(_ scratch: UnsafeMutablePointer<Float>, parts: Int, rows: Int, columns: Int,
                             filledRows: Range<Int>) {
        for part in 0..<parts {
            clearPadding(scratch + part * scratchCount(rows: rows, columns: columns), rows: rows, columns: columns,
                         filledRows: filledRows)
        }
    }

    /// Applies a group's parts in turn. `input` needs 8 readable values after its last row;
    /// `output` as many after `rows × columns`; `scratch` holds
    /// `scratchCount(parts:rows:columns:)` values (on a 32-byte boundary for aligned loads) with
    /// its padding cleared by `clearPadding(_:parts:rows:columns:filledRows:)`. The rows of
    /// `input` outside `filledRows` are zero (the features' padding): their row pass is skipped.
    /// With `adding` false the first part's column pass writes `output` instead of adding to it
    /// (the others add). `outputRows` and `outputColumns`, when given, limit the responses
    /// computed to those positions (clamped to the covered ones; each value is the one the whole
    /// pass gives there): the window check needs only the positions near the window's centre.
    /// `avx2` picks the kernels (tests compare both). The result is that of applying the parts one
    /// at a time, bit for bit.
    static func apply(_ group: SeparableFilterGroup, to input: UnsafePointer<Float>, rows: Int, columns: Int,
                      filledRows: Range<Int>, outputRows: Range<Int>? = nil, outputColumns: Range<Int>? = nil,
                      scratch: UnsafeMutablePointer<Float>,
                      addingTo output: UnsafeMutablePointer<Float>, adding: Bool = true, avx2: Bool = CPUFeatures.avx2) {
        let rowTaps = group.parts[0].row.count, columnTaps = group.parts[0].column.count
        let firstRow = columnTaps / 2, firstColumn = rowTaps / 2
        let covered = (firstRow..<(rows - (columnTaps - 1) / 2)).clamped(to: outputRows ?? 0..<rows)
        let coveredColumns = (firstColumn..<(columns - (rowTaps - 1) / 2)).clamped(to: outputColumns ?? 0..<columns)
        guard !coveredColumns.isEmpty, !covered.isEmpty else { return }
        // Scratch row i, column c holds row i's response at column c + firstColumn; output row r
        // reads scratch rows r − firstRow ..< r − firstRow + columnTaps.
        let count = coveredColumns.count, offset = coveredColumns.lowerBound - firstColumn
        let stride = scratchStride(columns), partStride = scratchCount(rows: rows, columns: columns)
        let needed = (covered.lowerBound - firstRow)..<(covered.upperBound - firstRow + columnTaps - 1)
        let filled = filledRows.clamped(to: 0..<rows).clamped(to: needed)
        let firstOutput = output + covered.lowerBound * columns + coveredColumns.lowerBound
        let firstScratch = scratch + (covered.lowerBound - firstRow) * stride + offset
        // The kernels' overrun (≤ 7 values past each row's `count`) lands in the scratch rows'
        // spare columns, the output's next row's uncovered columns and the buffers' slack.
        if avx2 && rowTaps > 7 {
            if !filled.isEmpty {
                hog_correlate_rows_avx2(input + filled.lowerBound * columns + offset, columns, group.rowTaps,
                                        group.parts.count, rowTaps, count, filled.count,
                                        scratch + filled.lowerBound * stride + offset, partStride, stride)
            }
            for (index, part) in group.parts.enumerated() {
                hog_correlate_avx2(firstScratch + index * partStride, stride, stride, part.column, columnTaps, count,
                                   covered.count, firstOutput, columns, adding || index > 0)
            }
            return
        }
        for (index, part) in group.parts.enumerated() {
            let scratch = scratch + index * partStride, firstScratch = firstScratch + index * partStride
            part.row.withUnsafeBufferPointer { row in
                for r in filled {
                    correlate(input + r * columns + offset, step: 1, taps: row, count: count,
                              into: scratch + r * stride + offset, adding: false)
                }
            }
            part.column.withUnsafeBufferPointer { column in
                for r in 0..<covered.count {
                    correlate(firstScratch + r * stride, step: stride, taps: column, count: count,
                              into: firstOutput + r * columns, adding: adding || index > 0)
                }
            }
        }
    }

    /// `target[c] (+)= Σ_n source[c + n·step] · taps[n]` for `c` in `0..<count`.
    @inline(__always)
    private static func correlate(_ source: UnsafePointer<Float>, step: Int, taps: UnsafeBufferPointer<Float>, count: Int,
                                  into target: UnsafeMutablePointer<Float>, adding: Bool) {
        typealias V = SIMD8<Float>
        @inline(__always) func load(_ p: UnsafePointer<Float>) -> V { UnsafeRawPointer(p).loadUnaligned(as: V.self) }
        @inline(__always) func store(_ v: V, _ p: UnsafeMutablePointer<Float>) {
            UnsafeMutableRawPointer(p).storeBytes(of: adding ? v + load(p) : v, as: V.self)
        }
        var c = 0
        while c + 32 <= count {
            var a0 = V(), a1 = V(), a2 = V(), a3 = V()
            var p = source + c
            for n in 0..<taps.count {
                let w = V(repeating: taps[n])
                a0 += load(p) * w
                a1 += load(p + 8) * w
                a2 += load(p + 16) * w
                a3 += load(p + 24) * w
                p += step
            }
            store(a0, target + c)
            store(a1, target + c + 8)
            store(a2, target + c + 16)
            store(a3, target + c + 24)
            c += 32
        }
        while c + 8 <= count {
            var a0 = V()
            var p = source + c
            for n in 0..<taps.count {
                a0 += load(p) * V(repeating: taps[n])
                p += step
            }
            store(a0, target + c)
            c += 8
        }
        while c < count {
            var sum: Float = 0
            var p = source + c
            for n in 0..<taps.count {
                sum += p.pointee * taps[n]
                p += step
            }
            target[c] = adding ? target[c] + sum : sum
            c += 1
        }
    }
}
