import Foundation
import Imaging
import XCTest

/// A corrupt frame whose header claims a huge size (reliability finding D3: 16 KB asking for
/// 65500×65500, 4.29 GB) is refused before anything is allocated for it.
final class FrameSizeLimitTests: XCTestCase {
    /// A real 320×240 JPEG whose SOF0 marker is rewritten to claim `width` × `height`.
    private func frame(claiming width: Int, _ height: Int) throws -> Data {
        var gray = GrayImage(width: 320, height: 240)
        for y in 0..<240 { for x in 0..<320 { gray[x, y] = UInt8((x ^ y) & 0xFF) } }
        var bytes = [UInt8](try JPEGEncoder.encode(gray, quality: 75))
        let sof = try XCTUnwrap((0..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = UInt8(height >> 8); bytes[sof + 6] = UInt8(height & 0xFF)
        bytes[sof + 7] = UInt8(width >> 8); bytes[sof + 8] = UInt8(width & 0xFF)
        return Data(bytes)
    }

    func testAHugeHeaderIsRefusedBeforeDecoding() throws {
        let jpeg = try frame(claiming: 65500, 65500)
        var decoder = JPEGDecoder()
        XCTAssertEqual(try decoder.size(of: jpeg).width, 65500, "libjpeg accepts the header itself")
        var image = GrayImage(width: 0, height: 0)
        XCTAssertThrowsError(try decoder.decode(jpeg, into: &image)) { error in
            XCTAssertEqual((error as? JPEGError)?.message, "frame is 65500×65500, larger than the 8192×8192 limit")
        }
        XCTAssertEqual(image.pixels.count, 0, "nothing was allocated for it")
        XCTAssertThrowsError(try decoder.decodeRGB(jpeg))
    }

    func testTheBoundCanBeTheCamerasSize() throws {
        var decoder = JPEGDecoder(maximumWidth: 320, maximumHeight: 240)
        XCTAssertEqual(try decoder.decodeGray(try frame(claiming: 320, 240)).width, 320)
        XCTAssertThrowsError(try decoder.decodeGray(try frame(claiming: 321, 240)))
        XCTAssertThrowsError(try decoder.decodeGray(try frame(claiming: 320, 241)))
    }
}
