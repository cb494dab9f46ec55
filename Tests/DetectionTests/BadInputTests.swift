import Detection
import FaceCore
import Imaging
import Landmarks
import XCTest

/// Frames a live camera can deliver that are not a nice single face.
final class BadInputTests: XCTestCase {
    private func defaultDetector(minSize: Int = 80) throws -> CascadeDetector {
        try CascadeDetector(classifier: TestCascades.load(SystemCascade.haarFrontalFaceDefault.rawValue),
                            settings: DetectorSettings(minSize: minSize))
    }

    func testEmptyAndTinyFrames() throws {
        for cascade in [SystemCascade.haarFrontalFaceDefault, .lbpFrontalFaceImproved, .haarFrontalFaceAlt2] {
            var detector = try CascadeDetector(classifier: TestCascades.load(cascade.rawValue))
            XCTAssertEqual(detector.detect(GrayImage(width: 0, height: 0)), [])
            XCTAssertEqual(detector.detect(GrayImage(width: 640, height: 0)), [])
            XCTAssertEqual(detector.detect(GrayImage(width: 10, height: 10, fill: 128)), [])
            XCTAssertEqual(detector.detect(GrayImage(width: 1, height: 480, fill: 128)), [])
            // Exactly the window size: one position, a flat image is rejected by the variance test.
            let window = GrayImage(width: detector.classifier.windowWidth, height: detector.classifier.windowHeight, fill: 90)
            XCTAssertEqual(detector.detect(window), [])
        }
    }

    func testMinSizeLargerThanFrameFindsNothing() throws {
        var detector = try defaultDetector(minSize: 600)
        XCTAssertEqual(detector.detect(try DetectionFixtures.image("hopper")), [])
    }

    func testFlatAndNoiseFramesFindNothing() throws {
        var detector = try defaultDetector()
        XCTAssertEqual(detector.detect(GrayImage(width: 640, height: 480, fill: 0)), [])
        XCTAssertEqual(detector.detect(GrayImage(width: 640, height: 480, fill: 255)), [])
        var generator = SystemRandomNumberGenerator()
        let noise = GrayImage(width: 640, height: 480, pixels: (0..<(640 * 480)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        XCTAssertEqual(detector.detect(noise), [])
        XCTAssertEqual(detector.detect(try DetectionFixtures.image("no_face")), [])
    }

    func testTwentyFacesInOneFrame() throws {
        // 20 faces of about 60 px: all should be found with minSize 30, as OpenCV finds them.
        let fixtures = try DetectionFixtures.load()
        let expected = try XCTUnwrap(fixtures.detections["default_min30"]?["twenty"])
        var detector = try defaultDetector(minSize: 30)
        let faces = detector.detect(try DetectionFixtures.image("twenty"))
        XCTAssertEqual(faces.count, expected.count)
        XCTAssertGreaterThanOrEqual(faces.count, 20)
        // Every tile of the 5x4 grid has a face in it.
        for tile in 0..<20 {
            let cell = FaceBox(x: (tile % 5) * 128, y: (tile / 5) * 120, width: 128, height: 120)
            XCTAssertTrue(faces.contains { cell.iou($0) > 0.1 && cell.x <= Int($0.centerX) && Int($0.centerX) < cell.x + 128 },
                          "no face found in tile \(tile)")
        }
    }

    func testReusedDetectorGivesSameResultsAcrossFrameSizes() throws {
        var detector = try defaultDetector()
        let hopper = try DetectionFixtures.image("hopper")
        let first = detector.detect(hopper)
        XCTAssertEqual(first.count, 1)
        // A different frame size (pyramid and buffers re-planned), then back.
        var small = GrayImage(width: 320, height: 240)
        for y in 0..<240 { for x in 0..<320 { small[x, y] = hopper[x * 2, y * 2] } }
        _ = detector.detect(small)
        XCTAssertEqual(detector.detect(hopper), first)
        var faces: [FaceBox] = []
        detector.detect(hopper, into: &faces)
        XCTAssertEqual(faces, first)
    }

    func testInvalidSettingsThrow() throws {
        let cascade = try TestCascades.load(SystemCascade.haarFrontalFaceDefault.rawValue)
        for settings in [DetectorSettings(scaleFactor: 1.0), DetectorSettings(scaleFactor: .nan),
                         DetectorSettings(minNeighbors: -1), DetectorSettings(minSize: 100, maxSize: 50)] {
            XCTAssertThrowsError(try CascadeDetector(classifier: cascade, settings: settings))
        }
    }

    func testMaxSizeLimitsFaces() throws {
        var detector = try CascadeDetector(classifier: TestCascades.load(SystemCascade.haarFrontalFaceDefault.rawValue),
                                           settings: DetectorSettings(minSize: 30, maxSize: 100))
        let faces = detector.detect(try DetectionFixtures.image("several"))
        XCTAssertTrue(faces.allSatisfy { $0.width <= 100 && $0.height <= 100 }, "\(faces)")
    }
}
