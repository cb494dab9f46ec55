extension RGBImage {
    /// The image scaled to `width` × `height` by bilinear interpolation between pixel centres
    /// (for making test footage of another size; not for a per-frame path).
    public func resized(width newWidth: Int, height newHeight: Int) -> RGBImage {
        precondition(newWidth > 0 && newHeight > 0 && width > 0 && height > 0, "sizes must be positive")
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        pixels.withUnsafeBufferPointer { source in
            for y in 0..<newHeight {
                let fy = min(max((Double(y) + 0.5) * sy - 0.5, 0), Double(height - 1))
                let y0 = Int(fy), y1 = min(y0 + 1, height - 1), wy = fy - Double(y0)
                for x in 0..<newWidth {
                    let fx = min(max((Double(x) + 0.5) * sx - 0.5, 0), Double(width - 1))
                    let x0 = Int(fx), x1 = min(x0 + 1, width - 1), wx = fx - Double(x0)
                    for c in 0..<3 {
                        let top = Double(source[(y0 * width + x0) * 3 + c]) * (1 - wx) + Double(source[(y0 * width + x1) * 3 + c]) * wx
                        let bottom = Double(source[(y1 * width + x0) * 3 + c]) * (1 - wx) + Double(source[(y1 * width + x1) * 3 + c]) * wx
                        out[(y * newWidth + x) * 3 + c] = UInt8(top * (1 - wy) + bottom * wy + 0.5)
                    }
                }
            }
        }
        return RGBImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// The image in the middle of a `width` × `height` black one (cut to it where larger).
    public func centred(inWidth newWidth: Int, height newHeight: Int) -> RGBImage {
        if newWidth == width && newHeight == height { return self }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 3)
        let dx = (newWidth - width) / 2, dy = (newHeight - height) / 2
        for y in max(0, -dy)..<min(height, newHeight - dy) {
            for x in max(0, -dx)..<min(width, newWidth - dx) {
                for c in 0..<3 { out[((y + dy) * newWidth + x + dx) * 3 + c] = pixels[(y * width + x) * 3 + c] }
            }
        }
        return RGBImage(width: newWidth, height: newHeight, pixels: out)
    }
}
