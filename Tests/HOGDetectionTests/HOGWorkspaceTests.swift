@testable import HOGDetection
import Imaging
import XCTest

/// A workspace with two threads splits large scans and finds exactly what one thread finds.
final class HOGWorkspaceTests: XCTestCase {
    func testTwoThreadsFindExactlyWhatOneThreadFinds() throws {
        let detector = try HOGFixture.detector()
        let one = HOGWorkspace(), two = HOGWorkspace(threads: 2)
        var faces = 0, splitScans = 0
        for (name, fixture) in try HOGFixture.images().sorted(by: { $0.key < $1.key }) {
            let gray = try HOGFixture.gray(fixture.file)
            for (upsample, adjust) in [(0, 0.0), (1, 0.0), (0, -0.5)] {
                let expected = detector.detect(gray, upsample: upsample, adjustThreshold: adjust, using: one)
                let found = detector.detect(gray, upsample: upsample, adjustThreshold: adjust, using: two)
                // Equal boxes, filters and scores (to the last bit), in the same order.
                XCTAssertEqual(found, expected, "\(name) upsample \(upsample) adjust \(adjust)")
                faces += expected.count
                if gray.width * gray.height << (2 * upsample) >= FrontalFaceDetector.smallestSplitScan { splitScans += 1 }
            }
        }
        XCTAssertGreaterThan(faces, 100)
        XCTAssertGreaterThan(splitScans, 40, "too few scans were large enough to be split")
    }

    /// Each two-thread workspace starts a thread and ends it when released (the Sanitizers stage
    /// runs this under ThreadSanitizer and AddressSanitizer).
    func testWorkspacesStartAndEndTheirThreadCleanly() throws {
        let detector = try HOGFixture.detector()
        let fixture = try XCTUnwrap(try HOGFixture.images().values.sorted(by: { $0.file < $1.file })
            .first { $0.width * $0.height >= FrontalFaceDetector.smallestSplitScan && !$0.upsample0.isEmpty })
        let gray = try HOGFixture.gray(fixture.file)
        let expected = detector.detect(gray, using: HOGWorkspace())
        for round in 0..<8 {
            let workspace = HOGWorkspace(threads: 2)
            XCTAssertEqual(detector.detect(gray, using: workspace), expected, "round \(round)")
            XCTAssertEqual(detector.detect(gray, using: workspace), expected, "round \(round), workspace reused")
        }
    }

    func testTheSplitHalvesThePyramidsPixels() {
        // Level areas 1, 25/36, (25/36)², …: levels 0 and 1 hold just over half of ten levels;
        // of three levels, the first alone is nearer to half than the first two.
        XCTAssertEqual(FrontalFaceDetector.split(0..<10), 2)
        XCTAssertEqual(FrontalFaceDetector.split(0..<2), 1)
        XCTAssertEqual(FrontalFaceDetector.split(3..<6), 4)
        XCTAssertNil(FrontalFaceDetector.split(0..<1))
        XCTAssertNil(FrontalFaceDetector.split(4..<4))
    }
}
