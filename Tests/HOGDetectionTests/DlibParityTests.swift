import HOGDetection
import Imaging
import XCTest

/// Detection for detection equal to dlib-bin's `detector.run(img, upsample, adjust_threshold)`
/// on every committed fixture, scanned on one thread and on two.
final class DlibParityTests: XCTestCase {
    func testEveryFixtureMatchesDlib() throws {
        try checkEveryFixture(using: HOGWorkspace())
    }

    func testEveryFixtureMatchesDlibOnTwoThreads() throws {
        try checkEveryFixture(using: HOGWorkspace(threads: 2))
    }

    private func checkEveryFixture(using workspace: HOGWorkspace, file: StaticString = #filePath, line: UInt = #line) throws {
        let detector = try HOGFixture.detector()
        let images = try HOGFixture.images()
        XCTAssertGreaterThanOrEqual(images.count, 20)
        var compared = 0
        var largestScoreDifference = 0.0
        for (name, fixture) in images.sorted(by: { $0.key < $1.key }) {
            let gray = try HOGFixture.gray(fixture.file)
            XCTAssertEqual(HOGFixture.fnv1a64(gray.pixels), fixture.fnv1a64, "\(name): decoded pixels differ from dlib's input")
            for (upsample, adjust, expected) in [(0, 0.0, fixture.upsample0), (1, 0.0, fixture.upsample1), (0, -0.5, fixture.adjusted)] {
                let found = detector.detect(gray, upsample: upsample, adjustThreshold: adjust, using: workspace)
                let difference = compare(found, expected, "\(name) upsample \(upsample) adjust \(adjust)")
                largestScoreDifference = max(largestScoreDifference, difference)
                compared += expected.count
            }
        }
        XCTAssertGreaterThan(compared, 100)
        // The issue allows 1e-3. The features equal dlib's bit for bit and the scores differ by at
        // most 1.5e-6 (float sums added in another order), so a difference near 1e-5
        // means a kernel changed what it computes.
        XCTAssertLessThan(largestScoreDifference, 1e-5, "largest score difference from dlib")
    }

    /// Asserts the same boxes as dlib's and scores within 1e-3; returns the largest score difference
    /// (0 when the boxes differ).
    private func compare(_ found: [FaceDetection], _ expected: [[Double]], _ what: String,
                         file: StaticString = #filePath, line: UInt = #line) -> Double {
        let boxes = found.map { [$0.left, $0.top, $0.right, $0.bottom, $0.detector] }
        let expectedBoxes = expected.map { [Int($0[0]), Int($0[1]), Int($0[2]), Int($0[3]), Int($0[5])] }
        XCTAssertEqual(boxes, expectedBoxes, what, file: file, line: line)
        guard boxes == expectedBoxes else { return 0 }
        var largest = 0.0
        for (face, reference) in zip(found, expected) {
            XCTAssertEqual(face.score, reference[4], accuracy: 1e-3, "\(what): score", file: file, line: line)
            largest = max(largest, abs(face.score - reference[4]))
        }
        return largest
    }
}
