import CHOGKernels

/// dlib's `float_spatially_filter_image_separable` with `add_to`: a row pass over every row
/// into `scratch`, then a column pass added into `output` over the rows and columns the filter
/// fully covers (the others hold unspecified values). 32 columns at a time in independent accumulators
/// (the sums' float rounding differs from dlib's in the last bits; scores agree to ~1e-6). On CPUs
/// with AVX2 and FMA the C kernel of `CHOGKernels` does the same with fused multiply-adds.
enum SeparableCorrelation {
    /// `input` needs 8 readable values after its last row; `scratch` and `output` as many after
    /// `rows × columns`. The rows of `input` outside `filledRows` are zero (the features'
    /// padding): their row pass is skipped. `avx2` picks the kernel (tests compare both).
    static func apply(_ filter: SeparableFilter, to input: UnsafePointer<Float>, rows: Int, columns: Int,
                      filledRows: Range<Int>, scratch: UnsafeMutablePointer<Float>,
                      addingTo output: UnsafeMutablePointer<Float>, avx2: Bool = CPUFeatures.avx2) {
        let rowTaps = filter.row.count, columnTaps = filter.column.count
        let firstRow = columnTaps / 2, firstColumn = rowTaps / 2
        let lastRow = rows - (columnTaps - 1) / 2, lastColumn = columns - (rowTaps - 1) / 2
        let count = lastColumn - firstColumn
        guard count > 0, lastRow > firstRow else { return }
        let filled = filledRows.clamped(to: 0..<rows)
        scratch.update(repeating: 0, count: filled.lowerBound * columns)
        (scratch + filled.upperBound * columns).update(repeating: 0, count: (rows - filled.upperBound) * columns + 8)
        // The kernel's overrun (≤ 7 values past each row's `count`) lands in the next row's
        // uncovered columns (`rowTaps − 1` of them) and in the buffers' slack.
        if avx2 && rowTaps > 7 {
            hog_correlate_avx2(input + filled.lowerBound * columns, columns, 1, filter.row, rowTaps, count, filled.count,
                               scratch + filled.lowerBound * columns + firstColumn, columns, false)
            hog_correlate_avx2(scratch + firstColumn, columns, columns, filter.column, columnTaps, count, lastRow - firstRow,
                               output + firstRow * columns + firstColumn, columns, true)
            return
        }
        filter.row.withUnsafeBufferPointer { row in
            for r in filled {
                correlate(input + r * columns, step: 1, taps: row, count: count, into: scratch + r * columns + firstColumn, adding: false)
            }
        }
        filter.column.withUnsafeBufferPointer { column in
            for r in firstRow..<lastRow {
                correlate(scratch + (r - firstRow) * columns + firstColumn, step: columns, taps: column, count: count,
                          into: output + r * columns + firstColumn, adding: true)
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
