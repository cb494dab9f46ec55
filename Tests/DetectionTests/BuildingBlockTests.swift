@testable import Detection
import FaceCore
import Imaging
import Landmarks
import XCTest

/// The resize and integral images against OpenCV's own output (cv2.resize INTER_LINEAR and
/// cv2.integral3, recorded by Scripts/make_detection_fixtures.py).
final class BuildingBlockTests: XCTestCase {
    func testFixtureJPEGsDecodeToOpenCVsPixels() throws {
        let fixtures = try DetectionFixtures.load()
        for (name, image) in fixtures.images {
            let decoded = try DetectionFixtures.image(name)
            XCTAssertEqual(decoded.width, 640)
            XCTAssertEqual(decoded.height, 480)
            XCTAssertEqual(DetectionFixtures.checksum(decoded.pixels), image.checksum, name)
        }
    }

    func testResizeIsBitExactWithOpenCVInterLinear() throws {
        let fixtures = try DetectionFixtures.load()
        let source = try DetectionFixtures.image(fixtures.resize.source)
        XCTAssertEqual(fixtures.resize.levels.count, 5)
        for level in fixtures.resize.levels {
            let resizer = LinearResizer(sourceWidth: source.width, sourceHeight: source.height,
                                        width: level.width, height: level.height)
            var output = [UInt8](repeating: 0, count: level.width * level.height)
            var rows = [Int32](repeating: 0, count: 2 * level.width)
            source.pixels.withUnsafeBufferPointer { src in
                output.withUnsafeMutableBufferPointer { out in
                    rows.withUnsafeMutableBufferPointer { resizer.resize(src, into: out, rows: $0) }
                }
            }
            XCTAssertEqual(DetectionFixtures.checksum(output), level.checksum, "\(level.width)x\(level.height)")
        }
    }

    func testIntegralImagesMatchOpenCV() throws {
        let reference = try DetectionFixtures.load().integral
        let w = reference.width, h = reference.height
        var integral = IntegralImages(includesSquares: true, includesTilted: true)
        // A wider buffer than needed, as when a pyramid level is smaller than level 0.
        integral.reserve(maxWidth: w + 5, maxHeight: h + 3)
        reference.pixels.withUnsafeBufferPointer { integral.compute($0, width: w, height: h) }
        let stride = integral.stride
        for y in 0...h {
            for x in 0...w {
                let i = y * (w + 1) + x
                XCTAssertEqual(Int64(integral.sums[y * stride + x]), reference.sum[i], "sum \(x),\(y)")
                XCTAssertEqual(Int64(integral.squares[y * stride + x]), reference.sqsum[i], "sqsum \(x),\(y)")
                XCTAssertEqual(Int64(integral.sums[integral.tiltedOffset + y * stride + x]), reference.tilted[i],
                               "tilted \(x),\(y)")
            }
        }
    }

    func testGroupingFollowsOpenCVRules() {
        var grouping = RectangleGrouping()
        var output: [FaceBox] = []
        // Four overlapping windows form one class (mean rect), a lone window is dropped with
        // groupThreshold 3, and a small class inside a bigger, stronger one is dropped.
        let cluster = [FaceBox(x: 100, y: 100, width: 50, height: 50), FaceBox(x: 102, y: 101, width: 50, height: 50),
                       FaceBox(x: 104, y: 99, width: 52, height: 52), FaceBox(x: 101, y: 103, width: 49, height: 49),
                       FaceBox(x: 99, y: 100, width: 51, height: 51)]
        let lone = [FaceBox(x: 300, y: 300, width: 40, height: 40)]
        let inner = Array(repeating: FaceBox(x: 115, y: 115, width: 20, height: 20), count: 4)
        grouping.group(cluster + lone + inner, groupThreshold: 3, eps: 0.2, into: &output)
        // Mean of x: (100+102+104+101+99)/5 = 101.2 -> 101; y 100.6 -> 101; w 50.4 -> 50; h 50.4 -> 50.
        XCTAssertEqual(output, [FaceBox(x: 101, y: 101, width: 50, height: 50)])
        grouping.group(cluster + lone, groupThreshold: 0, eps: 0.2, into: &output)
        XCTAssertEqual(output, cluster + lone)
        // With threshold 1 the 4-member inner class survives only if not inside a class with more than max(3, 4) members.
        grouping.group(Array(cluster.prefix(4)) + inner, groupThreshold: 1, eps: 0.2, into: &output)
        XCTAssertEqual(output.count, 2)
    }
}
