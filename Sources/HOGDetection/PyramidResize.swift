import CHOGKernels

/// dlib's bilinear `resize_image` for 8-bit gray images, as used by `pyramid_down<6>` (5/6 steps)
/// and `pyramid_up` (×2 for the Python API's `upsample`): dlib's 4-wide float path (positions
/// stepped in float 4 at a time, results rounded to nearest) for every column it covers, its scalar path
/// (weights in double, truncated) for the last few, so the pixels equal dlib's. On CPUs with AVX2
/// the 4-wide path's columns go 8 at a time through `hog_resize_row_avx2`, which picks each
/// block's neighbours out of 16 loaded bytes with a byte shuffle worked out once per image.
enum PyramidResize {
    /// dlib's `pyramid_down<6>` output size: `5·n/6`, rounded down.
    static func downSize(width: Int, height: Int) -> (width: Int, height: Int) {
        (5 * width / 6, 5 * height / 6)
    }

    /// dlib's `pyramid_up` output size with `pyramid_down<2>`: the image rectangle mapped up
    /// (`(p + (1.25, 0.75))·2`), rounded to the nearest integer.
    static func upSize(width: Int, height: Int) -> (width: Int, height: Int) {
        (Int(((Double(width - 1) + 1.25) * 2).rounded()) + 1, Int(((Double(height - 1) + 0.75) * 2).rounded()) + 1)
    }

    /// Per output column of the 4-wide path: the left input column and the horizontal fraction.
    /// dlib steps the positions in float, 4 at a time, the same way on every row, so they are
    /// worked out once per image. Reused between calls (grows only).
    final class Columns {
        let left = HOGWorkspace.Storage<Int32>(), fraction = HOGWorkspace.Storage<Float>()
        /// Per block of 8 columns for the AVX2 kernel: the first left column, and the byte
        /// positions (relative to it) of the 8 left neighbours then the 8 right ones.
        let blockLeft = HOGWorkspace.Storage<Int32>(), shuffle = HOGWorkspace.Storage<UInt8>()
        /// The 16 bytes of each row a block near the row's end reads, copied (the row may end
        /// sooner), and that block's first left column in the copy (0).
        let tailTop = HOGWorkspace.Storage<UInt8>(), tailBottom = HOGWorkspace.Storage<UInt8>()
        let tailLeft = HOGWorkspace.Storage<Int32>()
    }

    static func resize(_ input: UnsafePointer<UInt8>, width inWidth: Int, height inHeight: Int,
                       into output: UnsafeMutablePointer<UInt8>, width outWidth: Int, height outHeight: Int,
                       columns: Columns, avx2: Bool = CPUFeatures.avx2) {
        guard inWidth > 0, inHeight > 0, outWidth > 0, outHeight > 0 else { return }
        let xScale = Double(inWidth - 1) / Double(max(outWidth - 1, 1))
        let yScale = Double(inHeight - 1) / Double(max(outHeight - 1, 1))
        let lefts = columns.left.reserve(outWidth + 8), fractions = columns.fraction.reserve(outWidth + 8)
        let step = Float(4 * xScale)
        let start = -4 * xScale
        var xs = SIMD4<Float>(Float(start), Float(start + xScale), Float(start + 2 * xScale), Float(start + 3 * xScale))
        var vectorEnd = 0
        while vectorEnd < outWidth {
            xs += step
            // Lane 3 is the right-most: dlib leaves the 4-wide loop when its right neighbour
            // is outside the image.
            guard Int(xs[3]) + 1 < inWidth else { break }
            for i in 0..<4 {
                let left = Int(xs[i])
                lefts[vectorEnd + i] = Int32(left)
                fractions[vectorEnd + i] = xs[i] - Float(left)
            }
            vectorEnd += 4
        }
        let vectorColumns = min(vectorEnd, outWidth)
        let (blocks, paddedBlocks) = avx2 ? shuffleBlocks(lefts: lefts, columns: vectorColumns, inWidth: inWidth, into: columns) : (0, 0)
        let tailTop = columns.tailTop.reserve(16), tailBottom = columns.tailBottom.reserve(16)
        let tailLeft = columns.tailLeft.reserve(1)
        tailLeft[0] = 0
        typealias V = SIMD8<Float>
        var y = -yScale
        for r in 0..<outHeight {
            y += yScale
            let top = Int(y.rounded(.down))
            let bottom = min(top + 1, inHeight - 1)
            let tbFraction = y - Double(top)
            let tbf = Float(tbFraction), invTBf = Float(1 - tbFraction)
            let topRow = input + top * inWidth, bottomRow = input + bottom * inWidth
            let out = output + r * outWidth
            if blocks > 0 {
                hog_resize_row_avx2(topRow, bottomRow, columns.blockLeft.pointer, columns.shuffle.pointer, fractions,
                                    blocks, tbf, invTBf, out)
            }
            for b in blocks..<paddedBlocks {
                let first = Int(columns.blockLeft.pointer[b]), count = inWidth - first
                tailTop.update(from: topRow + first, count: count)
                tailBottom.update(from: bottomRow + first, count: count)
                hog_resize_row_avx2(tailTop, tailBottom, tailLeft, columns.shuffle.pointer + 16 * b, fractions + 8 * b,
                                    1, tbf, invTBf, out + 8 * b)
            }
            var c = 8 * paddedBlocks
            @inline(__always) func pixel(_ c: Int) -> UInt8 {
                let left = Int(lefts[c])
                let lr = fractions[c], invLR = 1 - lr
                let value = (invTBf * invLR) * Float(topRow[left]) + (invTBf * lr) * Float(topRow[left + 1])
                    + (tbf * invLR) * Float(bottomRow[left]) + (tbf * lr) * Float(bottomRow[left + 1])
                return UInt8(Double(value) + 0.5)
            }
            let vTB = V(repeating: tbf), vInvTB = V(repeating: invTBf), magic = V(repeating: 8_388_608)
            while c + 8 <= vectorColumns {
                var t0 = V(), t1 = V(), b0 = V(), b1 = V()
                for i in 0..<8 {
                    let left = Int(lefts[c + i])
                    t0[i] = Float(topRow[left])
                    t1[i] = Float(topRow[left + 1])
                    b0[i] = Float(bottomRow[left])
                    b1[i] = Float(bottomRow[left + 1])
                }
                let lr = UnsafeRawPointer(fractions + c).loadUnaligned(as: V.self), invLR = 1 - lr
                let value = (vInvTB * invLR) * t0 + (vInvTB * lr) * t1 + (vTB * invLR) * b0 + (vTB * lr) * b1
                // Rounded half up (0 ≤ value < 2²²), as dlib's `value + 0.5` truncated: adding
                // 2²³ leaves the nearest integer in the low mantissa bits, stepped down when above.
                var nearest = (value + magic) - magic
                nearest.replace(with: nearest - 1, where: nearest .> value)
                nearest.replace(with: nearest + 1, where: value - nearest .>= 0.5)
                let bits = unsafeBitCast(nearest + magic, to: SIMD8<UInt32>.self)
                for i in 0..<8 { out[c + i] = UInt8(truncatingIfNeeded: bits[i]) }
                c += 8
            }
            while c < vectorColumns {
                out[c] = pixel(c)
                c += 1
            }
            c = vectorEnd
            var x = -xScale + Double(c) * xScale
            while c < outWidth {
                x += xScale
                let left = Int(x.rounded(.down))
                let right = min(left + 1, inWidth - 1)
                let lr = Float(x - Double(left))
                let tl = Float(topRow[left]), tr = Float(topRow[right])
                let bl = Float(bottomRow[left]), br = Float(bottomRow[right])
                let upper = (1 - lr) * tl + lr * tr, lower = (1 - lr) * bl + lr * br
                let value = Float((1 - tbFraction) * Double(upper) + tbFraction * Double(lower))
                out[c] = value <= 0 ? 0 : value >= 255 ? 255 : UInt8(value)
                c += 1
            }
        }
    }

    /// Fills the AVX2 kernel's per-block tables for the leading blocks of 8 columns whose
    /// neighbours lie within 16 bytes of the block's first left column. Returns how many blocks
    /// have those 16 bytes inside the row (`inRow`: all but the last one or two of a pyramid
    /// level) and how many qualify in all (`all`: the rest read a copy of the row's end).
    private static func shuffleBlocks(lefts: UnsafeMutablePointer<Int32>, columns count: Int, inWidth: Int,
                                      into columns: Columns) -> (inRow: Int, all: Int) {
        let limit = count / 8
        let blockLeft = columns.blockLeft.reserve(limit), shuffle = columns.shuffle.reserve(16 * limit)
        var inRow = limit
        for b in 0..<limit {
            let first = Int(lefts[8 * b])
            guard Int(lefts[8 * b + 7]) + 1 - first < 16 else { return (min(inRow, b), b) }
            if first + 16 > inWidth { inRow = min(inRow, b) }
            blockLeft[b] = Int32(first)
            for i in 0..<8 {
                shuffle[16 * b + i] = UInt8(Int(lefts[8 * b + i]) - first)
                shuffle[16 * b + 8 + i] = UInt8(Int(lefts[8 * b + i]) + 1 - first)
            }
        }
        return (inRow, limit)
    }
}
