import HOGDetection
import Imaging
import XCTest

/// Scanning an area is dlib on the cropped image, with the boxes moved back.
final class ScanAreaTests: XCTestCase {
    func testAnAreaIsTheCropScannedWithBoxesMovedBack() throws {
        let detector = try HOGFixture.detector()
        let gray = try HOGFixture.gray("bald_guys.jpg")
        let workspace = HOGWorkspace()
        let (left, top, right, bottom) = (100, 60, 420, 380)
        var crop = GrayImage(width: right - left + 1, height: bottom - top + 1)
        for y in 0..<crop.height {
            for x in 0..<crop.width { crop[x, y] = gray[left + x, top + y] }
        }
        for upsample in [0, 1] {
            let inCrop = detector.detect(crop, upsample: upsample, using: workspace)
            XCTAssertFalse(inCrop.isEmpty)
            let moved = inCrop.map {
                FaceDetection(left: $0.left + left, top: $0.top + top, right: $0.right + left, bottom: $0.bottom + top,
                              score: $0.score, detector: $0.detector)
            }
            let area = ScanArea(left: left, top: top, right: right, bottom: bottom)
            XCTAssertEqual(detector.detect(gray, in: area, upsample: upsample, using: workspace), moved)
        }
        // An area reaching outside the image is clamped to it: the whole image.
        XCTAssertEqual(detector.detect(gray, in: ScanArea(left: -50, top: -50, right: 10_000, bottom: 10_000), using: workspace),
                       detector.detect(gray, using: workspace))
        XCTAssertEqual(detector.detect(gray, in: ScanArea(left: 700, top: 0, right: 800, bottom: 10), using: workspace), [])
    }

    func testTheAreaAroundATrackedFaceFindsItAgain() throws {
        let detector = try HOGFixture.detector()
        let workspace = HOGWorkspace()
        for name in ["hopper", "astronaut_rot-30", "2008_002506"] {
            let gray = try HOGFixture.gray(name + ".jpg")
            for face in detector.detect(gray, using: workspace) where face.width >= 80 {
                let again = detector.detect(gray, in: .around(face), using: workspace)
                XCTAssertTrue(again.contains { abs($0.left - face.left) <= 16 && abs($0.top - face.top) <= 16 && abs($0.width - face.width) <= 30 },
                              "\(name): \(face) not found again in \(again)")
            }
        }
    }
}
