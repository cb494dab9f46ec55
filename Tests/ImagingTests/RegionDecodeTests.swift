import Foundation
import Imaging
import XCTest

/// `JPEGDecoder.decodeLuma(_:into:region:)`: a part of a camera-size frame, bit for bit as a whole
/// decode gives it, and nothing outside it touched.
final class RegionDecodeTests: XCTestCase {
    /// The first frame of the bundled 1280×720 recording.
    private static func frame() throws -> Data {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings/hd/pexels-langer-720p")
        let index = try String(contentsOf: folder.appendingPathComponent("frames.jsonl"), encoding: .utf8)
        let first = try XCTUnwrap(index.split(separator: "\n").first)
        let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let length = try XCTUnwrap(entry["length"] as? Int)
        return try Data(contentsOf: folder.appendingPathComponent("frames.mjpeg")).prefix(length)
    }

    func testARegionHasTheWholeDecodesPixelsAndTheRestIsUntouched() throws {
        let jpeg = try Self.frame()
        var decoder = JPEGDecoder()
        let whole = try decoder.decodeGray(jpeg)
        XCTAssertEqual(whole.width, 1280)
        XCTAssertEqual(whole.height, 720)
        let regions = [PixelRegion(x: 333, y: 101, width: 250, height: 317),  // unaligned
                       PixelRegion(x: 0, y: 0, width: 1280, height: 720),
                       PixelRegion(x: 1200, y: 650, width: 300, height: 300),  // past the corner
                       PixelRegion(x: -40, y: -40, width: 100, height: 90)]
        for region in regions {
            var image = GrayImage(width: 1280, height: 720, fill: 7)
            let written = try decoder.decodeLuma(jpeg, into: &image, region: region)
            let wanted = region.clipped(width: 1280, height: 720)
            XCTAssertTrue(written.contains(wanted), "\(written) holds \(wanted)")
            XCTAssertEqual(written.clipped(width: 1280, height: 720), written, "inside the image")
            XCTAssertEqual(written.y, wanted.y, "rows start where asked")
            XCTAssertEqual(written.maxY, wanted.maxY, "and end where asked")
            XCTAssertLessThan(written.x, wanted.x + 1)
            XCTAssertLessThanOrEqual(wanted.x - written.x, 15, "columns widened to the block grid only")
            XCTAssertLessThanOrEqual(written.maxX - wanted.maxX, 15)
            var inside = 0
            for y in 0..<720 {
                for x in 0..<1280 {
                    if written.contains(PixelRegion(x: x, y: y, width: 1, height: 1)) {
                        XCTAssertEqual(image[x, y], whole[x, y], "(\(x), \(y)) of \(region)")
                        inside += 1
                    } else if image[x, y] != 7 {
                        XCTFail("(\(x), \(y)) outside \(written) was written")
                        return
                    }
                }
            }
            XCTAssertEqual(inside, written.area)
        }
    }

    func testAFrameOfAnotherSizeIsDecodedWhole() throws {
        let jpeg = try Self.frame()
        var decoder = JPEGDecoder()
        var image = GrayImage(width: 640, height: 480, fill: 7)
        let written = try decoder.decodeLuma(jpeg, into: &image, region: PixelRegion(x: 10, y: 10, width: 20, height: 20))
        XCTAssertEqual(written, .whole(width: 1280, height: 720))
        XCTAssertEqual(image, try decoder.decodeGray(jpeg))
    }

    func testDamageInsideTheRegionIsAnErrorAndBelowItIsNot() throws {
        let jpeg = try Self.frame()
        let truncated = jpeg.prefix(jpeg.count / 2)
        var decoder = JPEGDecoder()
        XCTAssertThrowsError(try decoder.decodeGray(truncated), "a whole decode of half a frame fails")
        var image = GrayImage(width: 1280, height: 720)
        XCTAssertThrowsError(try decoder.decodeLuma(truncated, into: &image, region: PixelRegion(x: 0, y: 600, width: 100, height: 100)))
        let top = try decoder.decodeLuma(truncated, into: &image, region: PixelRegion(x: 0, y: 0, width: 100, height: 64))
        XCTAssertEqual(top.maxY, 64, "the rows above the damage decode")
        XCTAssertThrowsError(try decoder.decodeLuma(Data([0xFF, 0xD8, 0xFF]), into: &image, region: .whole(width: 1280, height: 720)))
    }

    func testRegionArithmetic() {
        let a = PixelRegion(x: 10, y: 20, width: 30, height: 40)
        let b = PixelRegion(x: 30, y: 0, width: 50, height: 10)
        XCTAssertEqual(a.union(b), PixelRegion(x: 10, y: 0, width: 70, height: 60))
        XCTAssertEqual(a.union(PixelRegion(x: 0, y: 0, width: 0, height: 0)), a)
        XCTAssertEqual(PixelRegion(x: -5, y: 50, width: 20, height: 100).clipped(width: 64, height: 120),
                       PixelRegion(x: 0, y: 50, width: 15, height: 70))
        XCTAssertTrue(a.union(b).contains(a))
        XCTAssertFalse(a.contains(b))
        XCTAssertEqual(PixelRegion(minX: 1.5, minY: -0.5, maxX: 3.2, maxY: 2), PixelRegion(x: 1, y: -1, width: 3, height: 4))
        XCTAssertEqual(PixelRegion(x: 5, y: 5, width: -3, height: 2).area, 0, "a negative size is empty")
    }

    func testTheResampledAreaHoldsEveryPixelTheResampleReads() {
        // Mark one pixel at a time and see whether the window changes: every pixel that changes
        // it must lie in the area.
        var image = GrayImage(width: 90, height: 90, fill: 100)
        var window = GrayImage(width: 0, height: 0)
        let (cx, cy, scale, angle) = (45.3, 44.8, 0.9, 0.4)
        image.resample(centerX: cx, centerY: cy, scale: scale, angle: angle, toWidth: 40, height: 40, into: &window)
        let plain = window
        let area = GrayImage.resampledArea(centerX: cx, centerY: cy, scale: scale, angle: angle, width: 40, height: 40)
        var read = 0
        for y in 0..<90 {
            for x in 0..<90 {
                image[x, y] = 255
                image.resample(centerX: cx, centerY: cy, scale: scale, angle: angle, toWidth: 40, height: 40, into: &window)
                image[x, y] = 100
                guard window != plain else { continue }
                read += 1
                XCTAssertTrue(area.contains(PixelRegion(x: x, y: y, width: 1, height: 1)), "(\(x), \(y)) is read, outside \(area)")
            }
        }
        XCTAssertGreaterThan(read, 1000)
        XCTAssertLessThan(area.area, 2 * read, "and the area is not much larger than what is read")
    }
}
