import CJPEG
import Foundation

/// Encodes gray or RGB images as baseline JPEG (for recordings, overlays and `--draw`).
public enum JPEGEncoder {
    /// Encodes a gray image at the given quality (1...100).
    public static func encode(_ image: GrayImage, quality: Int = 75) throws -> Data {
        try image.pixels.withUnsafeBufferPointer {
            try encode($0, width: image.width, height: image.height, components: 1, quality: quality)
        }
    }

    /// Encodes an RGB image at the given quality (1...100).
    public static func encode(_ image: RGBImage, quality: Int = 75) throws -> Data {
        try image.pixels.withUnsafeBufferPointer {
            try encode($0, width: image.width, height: image.height, components: 3, quality: quality)
        }
    }

    private static func encode(_ pixels: UnsafeBufferPointer<UInt8>, width: Int, height: Int,
                               components: Int, quality: Int) throws -> Data {
        var out: UnsafeMutablePointer<UInt8>?
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let status = message.withUnsafeMutableBufferPointer { err in
            fw_jpeg_encode(pixels.baseAddress, Int32(width), Int32(height), Int32(components),
                           Int32(min(max(quality, 1), 100)), &out, &length, err.baseAddress, err.count)
        }
        guard status == 0, let out else {
            throw JPEGError(message: message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        defer { fw_jpeg_free(out) }
        return Data(bytes: out, count: length)
    }
}
