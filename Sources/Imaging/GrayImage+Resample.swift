import CCPUFeatures
import CImagingKernels
import Foundation

extension GrayImage {
    /// Samples this image on a rotated, scaled grid into `output` (`width × height`) with bilinear
    /// interpolation; outside the image the edge pixels are extended.
    ///
    /// Output pixel centres are spaced `scale` source pixels apart, the grid is centred on
    /// (`centerX`, `centerY`) and turned by `angle` radians (positive turns the grid clockwise on
    /// screen, so a face tilted clockwise by `angle` comes out upright). `output`'s storage is
    /// reused when its size is unchanged.
    public func resample(centerX: Double, centerY: Double, scale: Double, angle: Double = 0,
                         toWidth width: Int, height: Int, into output: inout GrayImage) {
        resample(centerX: centerX, centerY: centerY, scale: scale, angle: angle, toWidth: width, height: height,
                 into: &output, avx2: Self.avx2)
    }

    /// The pixels `resample` with these arguments reads (before clipping to the image): the
    /// window's corners mapped into the image, widened by the bilinear neighbour and a pixel.
    public static func resampledArea(centerX: Double, centerY: Double, scale: Double, angle: Double = 0,
                                     width: Int, height: Int) -> PixelRegion {
        let c = abs(cos(angle) * scale), s = abs(sin(angle) * scale)
        let halfU = Double(width) / 2, halfV = Double(height) / 2
        let extentX = c * halfU + s * halfV, extentY = s * halfU + c * halfV
        return PixelRegion(minX: centerX - extentX - 1.5, minY: centerY - extentY - 1.5,
                           maxX: centerX + extentX + 1.5, maxY: centerY + extentY + 1.5)
    }

    /// Whether the AVX2 kernel (`imaging_resample_avx2`) may run on this CPU.
    static let avx2 = cpu_has_avx2()

    /// `resample` with the kernel chosen by `avx2` (tests compare both): the C kernel takes 4
    /// pixels at a time in the same double operations, so both give the same pixels.
    func resample(centerX: Double, centerY: Double, scale: Double, angle: Double,
                  toWidth width: Int, height: Int, into output: inout GrayImage, avx2: Bool) {
        output.resize(width: width, height: height)
        guard !isEmpty, width > 0, height > 0 else { return }
        let c = cos(angle) * scale, s = sin(angle) * scale
        if avx2 && self.width * self.height <= Int(Int32.max) {
            pixels.withUnsafeBufferPointer { source in
                output.pixels.withUnsafeMutableBufferPointer { target in
                    imaging_resample_avx2(source.baseAddress!, self.width, self.height, centerX, centerY, c, s,
                                          target.baseAddress!, width, height)
                }
            }
            return
        }
        let maxX = Double(self.width - 1), maxY = Double(self.height - 1)
        let stride = self.width
        let halfW = Double(width) / 2, halfH = Double(height) / 2
        pixels.withUnsafeBufferPointer { source in
            output.pixels.withUnsafeMutableBufferPointer { target in
                for row in 0..<height {
                    let v = Double(row) + 0.5 - halfH
                    for column in 0..<width {
                        let u = Double(column) + 0.5 - halfW
                        let sx = min(max(centerX + c * u - s * v - 0.5, 0), maxX)
                        let sy = min(max(centerY + s * u + c * v - 0.5, 0), maxY)
                        let x0 = Int(sx), y0 = Int(sy)
                        let x1 = min(x0 + 1, self.width - 1), y1 = min(y0 + 1, self.height - 1)
                        let fx = sx - Double(x0), fy = sy - Double(y0)
                        let top = Double(source[y0 * stride + x0]) * (1 - fx) + Double(source[y0 * stride + x1]) * fx
                        let bottom = Double(source[y1 * stride + x0]) * (1 - fx) + Double(source[y1 * stride + x1]) * fx
                        target[row * width + column] = UInt8(top * (1 - fy) + bottom * fy + 0.5)
                    }
                }
            }
        }
    }
}
