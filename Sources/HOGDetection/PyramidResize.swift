/// dlib's bilinear `resize_image` for 8-bit gray images, as used by `pyramid_down<6>` (5/6 steps)
/// and `pyramid_up` (×2 for the Python API's `upsample`): dlib's 4-wide float path (positions
/// stepped in float 4 at a time, results rounded to nearest) for every column it covers, its scalar path
/// (weights in double, truncated) for the last few, so the pixels equal dlib's.
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

    static func resize(_ input: UnsafePointer<UInt8>, width inWidth: Int, height inHeight: Int,
                       into output: UnsafeMutablePointer<UInt8>, width outWidth: Int, height outHeight: Int) {
        guard inWidth > 0, inHeight > 0, outWidth > 0, outHeight > 0 else { return }
        let xScale = Double(inWidth - 1) / Double(max(outWidth - 1, 1))
        let yScale = Double(inHeight - 1) / Double(max(outHeight - 1, 1))
        let step = Float(4 * xScale)
        let start = -4 * xScale
        let first = SIMD4<Float>(Float(start), Float(start + xScale), Float(start + 2 * xScale), Float(start + 3 * xScale))
        var y = -yScale
        for r in 0..<outHeight {
            y += yScale
            let top = Int(y.rounded(.down))
            let bottom = min(top + 1, inHeight - 1)
            let tbFraction = y - Double(top)
            let tbf = Float(tbFraction), invTBf = Float(1 - tbFraction)
            let topRow = input + top * inWidth, bottomRow = input + bottom * inWidth
            let out = output + r * outWidth
            var xs = first
            var c = 0
            while c < outWidth {
                xs += step
                // Lane 3 is the right-most: dlib leaves the 4-wide loop when its right neighbour
                // is outside the image.
                guard Int(xs[3]) + 1 < inWidth else { break }
                for i in 0..<4 where c + i < outWidth {
                    let left = Int(xs[i])
                    let lr = xs[i] - Float(left), invLR = 1 - lr
                    let value = (invTBf * invLR) * Float(topRow[left]) + (invTBf * lr) * Float(topRow[left + 1])
                        + (tbf * invLR) * Float(bottomRow[left]) + (tbf * lr) * Float(bottomRow[left + 1])
                    out[c + i] = UInt8(Double(value) + 0.5)
                }
                c += 4
            }
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
}
