import CJPEG
import Foundation

/// Decodes baseline JPEG frames (as webcams send in MJPEG) with libjpeg-turbo.
///
/// A decoder owns a small scratch row; reuse one decoder and one `GrayImage` per stream so
/// that steady-state decoding allocates nothing. Corrupt or truncated data throws `JPEGError`.
///
/// A frame whose header declares more than `maximumWidth` × `maximumHeight` pixels is refused
/// before anything is allocated for it: a 16 KB corrupt frame can claim 65500×65500 (4 GB).
public struct JPEGDecoder {
    /// The default bound on either side, for images and recordings (a live camera uses its
    /// negotiated size instead).
    public static let defaultMaximumSide = 8192

    /// The largest frame decoded.
    public var maximumWidth: Int
    public var maximumHeight: Int
    private var scratch: [UInt8] = []
    private var message = [CChar](repeating: 0, count: 256)

    public init(maximumWidth: Int = defaultMaximumSide, maximumHeight: Int = defaultMaximumSide) {
        self.maximumWidth = maximumWidth
        self.maximumHeight = maximumHeight
    }

    /// The width and height stored in a JPEG's header.
    public mutating func size(of jpeg: some ContiguousBytes) throws -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0
        let status = jpeg.withUnsafeBytes { bytes in
            message.withUnsafeMutableBufferPointer { err in
                fw_jpeg_header(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                               &width, &height, err.baseAddress, err.count)
            }
        }
        try check(status)
        return (Int(width), Int(height))
    }

    /// The header's size, refused when it exceeds the bound (before anything is allocated).
    private mutating func boundedSize(of jpeg: some ContiguousBytes) throws -> (width: Int, height: Int) {
        let (width, height) = try size(of: jpeg)
        guard width <= maximumWidth, height <= maximumHeight else {
            throw JPEGError(message: "frame is \(width)×\(height), larger than the \(maximumWidth)×\(maximumHeight) limit")
        }
        return (width, height)
    }

    /// Decodes a JPEG into `image`, resizing it (and reusing its storage when the size is unchanged).
    public mutating func decode(_ jpeg: some ContiguousBytes, into image: inout GrayImage,
                                conversion: GrayConversion = .luma) throws {
        let (width, height) = try boundedSize(of: jpeg)
        image.resize(width: width, height: height)
        if conversion == .rgbMean && scratch.count < 3 * width {
            scratch = [UInt8](repeating: 0, count: 3 * width)
        }
        let mode = conversion == .luma ? FW_JPEG_LUMA : FW_JPEG_RGB_MEAN
        let status = jpeg.withUnsafeBytes { bytes in
            image.pixels.withUnsafeMutableBufferPointer { out in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    message.withUnsafeMutableBufferPointer { err in
                        fw_jpeg_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, mode,
                                       out.baseAddress, out.count, scratch.baseAddress, scratch.count,
                                       err.baseAddress, err.count)
                    }
                }
            }
        }
        try check(status)
    }

    /// Decodes the luma of `region` of a JPEG into `image`, which must already have the JPEG's
    /// size; the rest of `image` keeps what it held. Returns the region written: `region`
    /// clipped to the image and widened to the JPEG's block grid. A JPEG of another size than
    /// `image` is decoded whole (and `image` resized). The pixels written are those a whole
    /// `.luma` decode gives, bit for bit; damaged data below the region goes unnoticed.
    @discardableResult
    public mutating func decodeLuma(_ jpeg: some ContiguousBytes, into image: inout GrayImage,
                                    region: PixelRegion) throws -> PixelRegion {
        let (width, height) = try boundedSize(of: jpeg)
        guard width == image.width, height == image.height else {
            try decode(jpeg, into: &image, conversion: .luma)
            return .whole(width: width, height: height)
        }
        var x0 = Int32(clamping: region.x), y0 = Int32(clamping: region.y)
        var x1 = Int32(clamping: region.maxX), y1 = Int32(clamping: region.maxY)
        let status = jpeg.withUnsafeBytes { bytes in
            image.pixels.withUnsafeMutableBufferPointer { out in
                message.withUnsafeMutableBufferPointer { err in
                    fw_jpeg_decode_luma_region(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                                               out.baseAddress, Int32(width), Int32(height),
                                               &x0, &y0, &x1, &y1, err.baseAddress, err.count)
                }
            }
        }
        try check(status)
        return PixelRegion(x: Int(x0), y: Int(y0), width: Int(x1 - x0), height: Int(y1 - y0))
    }

    /// Decodes a JPEG into a new gray image.
    public mutating func decodeGray(_ jpeg: some ContiguousBytes, conversion: GrayConversion = .luma) throws -> GrayImage {
        var image = GrayImage(width: 0, height: 0)
        try decode(jpeg, into: &image, conversion: conversion)
        return image
    }

    /// Decodes a JPEG into a new RGB image (gray JPEGs are replicated into three channels).
    public mutating func decodeRGB(_ jpeg: some ContiguousBytes) throws -> RGBImage {
        let (width, height) = try boundedSize(of: jpeg)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        let status = jpeg.withUnsafeBytes { bytes in
            pixels.withUnsafeMutableBufferPointer { out in
                message.withUnsafeMutableBufferPointer { err in
                    fw_jpeg_decode(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, FW_JPEG_RGB,
                                   out.baseAddress, out.count, nil, 0, err.baseAddress, err.count)
                }
            }
        }
        try check(status)
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    private func check(_ status: Int32) throws {
        guard status == 0 else {
            let text = message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            throw JPEGError(message: text.isEmpty ? "unknown libjpeg error" : text)
        }
    }
}
