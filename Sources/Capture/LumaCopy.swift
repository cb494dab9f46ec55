import Imaging

/// Copies the luma of an uncompressed camera frame into a gray image, honouring the row stride.
enum LumaCopy {
    /// Bytes a frame of `layout` needs: every row but the last at full stride, plus the last row.
    static func requiredBytes(_ layout: PixelLayout) -> Int {
        let pixelBytes = layout.fourcc == .yuyv ? 2 : 1
        let stride = max(layout.bytesPerLine, layout.width * pixelBytes)
        return layout.height > 0 ? stride * (layout.height - 1) + layout.width * pixelBytes : 0
    }

    /// GREY rows are copied as they are; YUYV's Y bytes (every other byte) are taken 16 pixels
    /// at a time. `bytes` must hold `requiredBytes(layout)`. `image` keeps its storage when its
    /// size is unchanged and it is not shared.
    static func copy(_ bytes: UnsafeRawBufferPointer, layout: PixelLayout, into image: inout GrayImage) {
        let width = layout.width
        let yuyv = layout.fourcc == .yuyv
        let stride = max(layout.bytesPerLine, width * (yuyv ? 2 : 1))
        image.resize(width: width, height: layout.height)
        guard let source = bytes.baseAddress else { return }
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            guard let target = pixels.baseAddress else { return }
            for y in 0..<layout.height {
                let row = source + y * stride
                let out = target + y * width
                guard yuyv else {
                    out.update(from: row.assumingMemoryBound(to: UInt8.self), count: width)
                    continue
                }
                var x = 0
                while x + 16 <= width {
                    let pairs = (row + 2 * x).loadUnaligned(as: SIMD32<UInt8>.self)
                    UnsafeMutableRawPointer(out + x).storeBytes(of: pairs.evenHalf, as: SIMD16<UInt8>.self)
                    x += 16
                }
                while x < width {
                    out[x] = row.load(fromByteOffset: 2 * x, as: UInt8.self)
                    x += 1
                }
            }
        }
    }

    /// The inverse of `copy`: writes `image` as GREY rows, or as YUYV with neutral chroma (128),
    /// at the layout's row stride. `memory` must hold `requiredBytes(layout)`; `image` must have
    /// the layout's size.
    static func write(_ image: GrayImage, layout: PixelLayout, into memory: UnsafeMutableRawBufferPointer) {
        let width = layout.width
        let yuyv = layout.fourcc == .yuyv
        let stride = max(layout.bytesPerLine, width * (yuyv ? 2 : 1))
        guard let target = memory.baseAddress else { return }
        image.pixels.withUnsafeBufferPointer { pixels in
            guard let source = pixels.baseAddress else { return }
            for y in 0..<min(layout.height, image.height) {
                let row = source + y * image.width
                let out = target + y * stride
                guard yuyv else {
                    out.copyMemory(from: row, byteCount: width)
                    continue
                }
                for x in 0..<width {
                    out.storeBytes(of: row[x], toByteOffset: 2 * x, as: UInt8.self)
                    out.storeBytes(of: 128, toByteOffset: 2 * x + 1, as: UInt8.self)
                }
            }
        }
    }
}
