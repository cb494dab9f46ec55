extension RGBImage {
    /// Sets one pixel if it lies inside the image.
    public mutating func plot(x: Int, y: Int, color: Color) {
        guard x >= 0, y >= 0, x < width, y < height else { return }
        let i = (y * width + x) * 3
        pixels[i] = color.r
        pixels[i + 1] = color.g
        pixels[i + 2] = color.b
    }

    /// Draws a filled dot of the given radius centred on a sub-pixel point.
    public mutating func dot(x: Double, y: Double, radius: Int = 1, color: Color) {
        let cx = Int((x).rounded()), cy = Int((y).rounded())
        for dy in -radius...radius {
            for dx in -radius...radius where dx * dx + dy * dy <= radius * radius {
                plot(x: cx + dx, y: cy + dy, color: color)
            }
        }
    }

    /// Draws the outline of an axis-aligned rectangle, `thickness` pixels wide, inside its edges.
    public mutating func rectangle(x: Int, y: Int, width w: Int, height h: Int, thickness: Int = 2, color: Color) {
        guard w > 0, h > 0 else { return }
        for t in 0..<thickness {
            for xx in x..<(x + w) {
                plot(x: xx, y: y + t, color: color)
                plot(x: xx, y: y + h - 1 - t, color: color)
            }
            for yy in y..<(y + h) {
                plot(x: x + t, y: yy, color: color)
                plot(x: x + w - 1 - t, y: yy, color: color)
            }
        }
    }
}
