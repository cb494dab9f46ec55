extension GrayImage {
    /// Samples a rectangle of this image (in pixels; it may reach past the edges, which are
    /// extended) into `output`, resized to `width × height` with bilinear interpolation.
    /// `output`'s storage is reused when its size is unchanged.
    public func resample(x: Double, y: Double, width regionWidth: Double, height regionHeight: Double,
                         toWidth width: Int, height: Int, into output: inout GrayImage) {
        output.resize(width: width, height: height)
        guard !isEmpty, width > 0, height > 0 else { return }
        let stepX = regionWidth / Double(width), stepY = regionHeight / Double(height)
        let maxX = self.width - 1, maxY = self.height - 1
        pixels.withUnsafeBufferPointer { source in
            output.pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let sy = min(max(y + (Double(row) + 0.5) * stepY - 0.5, 0), Double(maxY))
                    let y0 = Int(sy), y1 = min(y0 + 1, maxY)
                    let fy = sy - Double(y0)
                    for column in 0..<width {
                        let sx = min(max(x + (Double(column) + 0.5) * stepX - 0.5, 0), Double(maxX))
                        let x0 = Int(sx), x1 = min(x0 + 1, maxX)
                        let fx = sx - Double(x0)
                        let top = Double(source[y0 * self.width + x0]) * (1 - fx) + Double(source[y0 * self.width + x1]) * fx
                        let bottom = Double(source[y1 * self.width + x0]) * (1 - fx) + Double(source[y1 * self.width + x1]) * fx
                        target[row * width + column] = UInt8((top * (1 - fy) + bottom * fy + 0.5).rounded(.towardZero))
                    }
                }
            }
        }
    }
}
