import Foundation
import Imaging
import XCTest

final class JPEGDecoderTests: XCTestCase {
    /// A 64×48 color test card: smooth gradients in each channel plus a hard-edged square.
    private func testCard() -> RGBImage {
        let width = 64, height = 48
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let i = (y * width + x) * 3
                let inSquare = (20..<36).contains(x) && (12..<28).contains(y)
                pixels[i] = UInt8(x * 4)
                pixels[i + 1] = inSquare ? 250 : UInt8(y * 5)
                pixels[i + 2] = UInt8((x + y) * 2)
            }
        }
        return RGBImage(width: width, height: height, pixels: pixels)
    }

    func testGrayRoundTripKeepsSizeAndPixels() throws {
        var gray = GrayImage(width: 40, height: 30)
        for y in 0..<30 { for x in 0..<40 { gray[x, y] = UInt8((x * 6 + y * 2) % 256) } }
        let jpeg = try JPEGEncoder.encode(gray, quality: 95)
        XCTAssertEqual(Array(jpeg.prefix(2)), [0xFF, 0xD8], "starts with SOI")
        var decoder = JPEGDecoder()
        let decoded = try decoder.decodeGray(jpeg)
        XCTAssertEqual(decoded.width, 40)
        XCTAssertEqual(decoded.height, 30)
        let worst = zip(decoded.pixels, gray.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        XCTAssertLessThanOrEqual(worst, 6, "quality 95 keeps a smooth ramp within a few levels")
    }

    func testRGBMeanIsDlibsIntegerAverageOfTheRGBDecode() throws {
        let jpeg = try JPEGEncoder.encode(testCard(), quality: 80)
        var decoder = JPEGDecoder()
        let rgb = try decoder.decodeRGB(jpeg)
        let mean = try decoder.decodeGray(jpeg, conversion: .rgbMean)
        for i in 0..<mean.pixels.count {
            let sum = Int(rgb.pixels[3 * i]) + Int(rgb.pixels[3 * i + 1]) + Int(rgb.pixels[3 * i + 2])
            XCTAssertEqual(Int(mean.pixels[i]), sum / 3, "pixel \(i)")
        }
    }

    func testLumaFollowsBT601Weights() throws {
        let jpeg = try JPEGEncoder.encode(testCard(), quality: 90)
        var decoder = JPEGDecoder()
        let rgb = try decoder.decodeRGB(jpeg)
        let luma = try decoder.decodeGray(jpeg, conversion: .luma)
        var worst = 0.0
        for i in 0..<luma.pixels.count {
            let y = 0.299 * Double(rgb.pixels[3 * i]) + 0.587 * Double(rgb.pixels[3 * i + 1]) + 0.114 * Double(rgb.pixels[3 * i + 2])
            worst = max(worst, abs(y - Double(luma.pixels[i])))
        }
        // Luma skips chroma upsampling, so it differs from the luma of the upsampled RGB only by rounding
        // and the chroma reconstruction error near the square's hard edges.
        XCTAssertLessThan(worst, 12)
        XCTAssertNotEqual(luma.pixels, try decoder.decodeGray(jpeg, conversion: .rgbMean).pixels)
    }

    func testDecodingIntoAnImageOfTheSameSizeReusesItsStorage() throws {
        let jpeg = try JPEGEncoder.encode(testCard(), quality: 75)
        var decoder = JPEGDecoder()
        var image = GrayImage(width: 64, height: 48)
        let before = image.pixels.withUnsafeBufferPointer { $0.baseAddress }
        try decoder.decode(jpeg, into: &image)
        let after = image.pixels.withUnsafeBufferPointer { $0.baseAddress }
        XCTAssertEqual(before, after)
    }

    func testTruncatedJPEGThrows() throws {
        let jpeg = try JPEGEncoder.encode(testCard(), quality: 75)
        var decoder = JPEGDecoder()
        for cut in [jpeg.count / 2, jpeg.count - 2, 200] {
            XCTAssertThrowsError(try decoder.decodeGray(jpeg.prefix(cut))) { error in
                XCTAssertTrue(error is JPEGError, "cut at \(cut): \(error)")
            }
        }
    }

    func testCorruptEntropyDataThrows() throws {
        var jpeg = try JPEGEncoder.encode(testCard(), quality: 75)
        // Inject a restart marker that the stream never declared into the middle of the scan.
        let middle = jpeg.count * 2 / 3
        jpeg[middle] = 0xFF
        jpeg[middle + 1] = 0xD3
        var decoder = JPEGDecoder()
        XCTAssertThrowsError(try decoder.decodeGray(jpeg)) { error in
            XCTAssertTrue(error is JPEGError)
        }
    }

    func testGarbageAndEmptyInputThrow() {
        var decoder = JPEGDecoder()
        XCTAssertThrowsError(try decoder.decodeGray(Data()))
        XCTAssertThrowsError(try decoder.decodeGray(Data("not a jpeg at all, just text".utf8))) { error in
            XCTAssertTrue((error as? JPEGError)?.message.isEmpty == false)
        }
        XCTAssertThrowsError(try decoder.decodeGray(Data([0xFF, 0xD8, 0xFF, 0xD9])))
    }

    func testMotionJPEGFramesWithoutHuffmanTablesDecode() throws {
        // Many UVC webcams leave out the DHT segments and rely on the standard tables (as AVI1
        // motion JPEG allows); the decoder must fill them in.
        let jpeg = try JPEGEncoder.encode(testCard(), quality: 80)
        var stripped = Data()
        var i = 0
        var removed = 0
        let bytes = [UInt8](jpeg)
        while i < bytes.count {
            if bytes[i] == 0xFF, i + 3 < bytes.count, bytes[i + 1] == 0xC4 {
                let length = Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
                i += 2 + length
                removed += 1
                continue
            }
            if bytes[i] == 0xFF, i + 1 < bytes.count, bytes[i + 1] == 0xDA {  // start of scan: copy the rest
                stripped.append(contentsOf: bytes[i...])
                break
            }
            stripped.append(bytes[i])
            i += 1
        }
        XCTAssertGreaterThan(removed, 0, "the encoder wrote Huffman tables to remove")
        var decoder = JPEGDecoder()
        XCTAssertEqual(try decoder.decodeGray(stripped).pixels, try decoder.decodeGray(jpeg).pixels)
    }
}
