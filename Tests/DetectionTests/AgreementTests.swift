import Detection
import FaceCore
import Imaging
import Landmarks
import XCTest

/// Our detector against OpenCV 4.x's `detectMultiScale` on the fixture frames, for every
/// recorded setting (three cascades, minSize 80 and 30, scaleFactor 1.1 and 1.2, and the raw
/// windows with minNeighbors 0).
final class AgreementTests: XCTestCase {
    private func detector(for setting: DetectionFixtures.Setting) throws -> CascadeDetector {
        try CascadeDetector(classifier: TestCascades.load(setting.cascade),
                            settings: DetectorSettings(scaleFactor: setting.scaleFactor,
                                                       minNeighbors: setting.minNeighbors,
                                                       minSize: setting.minSize))
    }

    /// Same number of faces, and each OpenCV box matched (greedily, best IoU first) by one of
    /// ours with IoU >= 0.9.
    private func assertAgreement(_ key: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fixtures = try DetectionFixtures.load()
        let setting = try XCTUnwrap(fixtures.settings[key])
        let expectedByImage = try XCTUnwrap(fixtures.detections[key])
        var detector = try detector(for: setting)
        for (name, lists) in expectedByImage.sorted(by: { $0.key < $1.key }) {
            let image = try DetectionFixtures.image(name)
            let expected = DetectionFixtures.boxes(lists)
            let found = detector.detect(image)
            let context = "\(key) \(name): OpenCV \(expected.sorted(by: Self.order)) ours \(found.sorted(by: Self.order))"
            XCTAssertEqual(found.count, expected.count, context, file: file, line: line)
            var unmatched = found
            for box in expected {
                let best = unmatched.indices.max { box.iou(unmatched[$0]) < box.iou(unmatched[$1]) }
                guard let best, box.iou(unmatched[best]) >= 0.9 else {
                    XCTFail("no match with IoU >= 0.9 for OpenCV box \(box); \(context)", file: file, line: line)
                    continue
                }
                unmatched.remove(at: best)
            }
        }
    }

    /// Raw windows (minNeighbors 0) must be exactly OpenCV's set: same scales, positions,
    /// stage decisions and skips.
    private func assertSameRawWindows(_ key: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let fixtures = try DetectionFixtures.load()
        let setting = try XCTUnwrap(fixtures.settings[key])
        XCTAssertEqual(setting.minNeighbors, 0)
        var detector = try detector(for: setting)
        for (name, lists) in try XCTUnwrap(fixtures.detections[key]).sorted(by: { $0.key < $1.key }) {
            let found = detector.detect(try DetectionFixtures.image(name)).sorted(by: Self.order)
            XCTAssertEqual(found, DetectionFixtures.boxes(lists).sorted(by: Self.order), "\(key) \(name)", file: file, line: line)
        }
    }

    static func order(_ a: FaceBox, _ b: FaceBox) -> Bool {
        (a.x, a.y, a.width, a.height) < (b.x, b.y, b.width, b.height)
    }

    func testDefaultHaarMinSize80() throws { try assertAgreement("default_min80") }
    func testDefaultHaarMinSize30() throws { try assertAgreement("default_min30") }
    func testDefaultHaarScaleFactor12() throws { try assertAgreement("default_min80_sf12") }
    func testAltMinSize80() throws { try assertAgreement("alt_min80") }
    func testAltScaleFactor12() throws { try assertAgreement("alt_min80_sf12") }
    func testAltScaleFactor12MinSize30() throws { try assertAgreement("alt_min30_sf12") }
    func testAlt2MinSize80() throws { try assertAgreement("alt2_min80") }
    func testAlt2MinSize30() throws { try assertAgreement("alt2_min30") }
    func testLBPImprovedMinSize80() throws { try assertAgreement("lbp_improved_min80") }
    func testLBPImprovedMinSize30() throws { try assertAgreement("lbp_improved_min30") }

    func testRawWindowsDefaultHaar() throws { try assertSameRawWindows("default_raw_min80") }
    func testRawWindowsAlt2() throws { try assertSameRawWindows("alt2_raw_min80") }
    func testRawWindowsLBPImproved() throws { try assertSameRawWindows("lbp_improved_raw_min80") }

    func testFixtureCoverage() throws {
        // Guard against a regenerated fixture silently losing the interesting cases.
        let fixtures = try DetectionFixtures.load()
        let detections = try XCTUnwrap(fixtures.detections["default_min80"])
        XCTAssertEqual(detections.count, 9)
        XCTAssertEqual(detections["no_face"]?.count, 0)
        XCTAssertEqual(detections["hopper"]?.count, 1)
        XCTAssertEqual(detections["several"]?.count, 6)
        XCTAssertTrue(fixtures.opencv_version.hasPrefix("4."))
    }
}
