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
