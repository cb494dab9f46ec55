import HOGDetection
import Imaging
import XCTest

/// `findsFace(centredIn:…)`, the tracker's window check, against `detect` on the same windows.
final class CentredFaceTests: XCTestCase {
    /// A `side × side` window of `image` centred on (`x`, `y`), zero outside the image.
    private func window(_ image: GrayImage, x: Int, y: Int, side: Int) -> GrayImage {
        var window = GrayImage(width: side, height: side)
        for wy in 0..<side {
            for wx in 0..<side {
                let (ix, iy) = (x - side / 2 + wx, y - side / 2 + wy)
                if ix >= 0, iy >= 0, ix < image.width, iy < image.height { window[wx, wy] = image[ix, iy] }
            }
        }
        return window
    }

    func testEveryDetectedFaceIsFoundInAWindowCentredOnIt() throws {
        let detector = try HOGFixture.detector()
        let workspace = HOGWorkspace()
        var faces = 0
        for name in ["hopper", "astronaut", "astronaut_rot-15", "hopper_rot+15", "bald_guys", "several", "2008_002506"] {
            let gray = try HOGFixture.gray(name + ".jpg")
            for face in detector.detect(gray, using: workspace) {
                let w = Double(face.width)
                let crop = window(gray, x: (face.left + face.right + 1) / 2, y: (face.top + face.bottom + 1) / 2,
                                  side: Int(1.8 * w))
                XCTAssertTrue(detector.findsFace(centredIn: crop, within: 0.3 * w, faceWidths: (w / 1.5)...(w * 1.5),
                                                 adjustThreshold: 0, using: workspace), "\(name): \(face)")
                faces += 1
            }
        }
        XCTAssertGreaterThan(faces, 15)
    }

    func testItAgreesWithDetectOnWindowsAllOverTheImages() throws {
        let detector = try HOGFixture.detector()
        let workspace = HOGWorkspace()
        var found = 0, notFound = 0
        for name in ["bald_guys", "several", "small_faces", "crop_bald_guys", "coffee", "dogs", "hopper_rot-30"] {
            let gray = try HOGFixture.gray(name + ".jpg")
            // Windows of 120–239 px on a grid over the image.
            for (index, (x, y)) in stride(from: 20, to: gray.width, by: 53).flatMap({ x in
                stride(from: 20, to: gray.height, by: 47).map { (x, $0) }
            }).enumerated() {
                let side = 120 + index * 37 % 120
                let crop = window(gray, x: x, y: y, side: side)
                let w = Double(side) / 1.8, radius = 0.3 * w, widths = (w / 1.5)...(w * 1.5)
                for adjust in [0.0, -0.6] {
                    let finds = detector.findsFace(centredIn: crop, within: radius, faceWidths: widths,
                                                   adjustThreshold: adjust, using: workspace)
                    let area = ScanArea(left: 0, top: 0, right: side - 1, bottom: side - 1, faceWidths: widths)
                    let detections = detector.detect(crop, in: area, adjustThreshold: adjust, using: workspace)
                    let centred = detections.contains {
                        abs(Double($0.left + $0.right + 1) / 2 - Double(side) / 2) < radius
                            && abs(Double($0.top + $0.bottom + 1) / 2 - Double(side) / 2) < radius
                    }
                    // A face detect reports near the centre is found; a window found means detect
                    // had a candidate, so it reports at least one face.
                    if centred { XCTAssertTrue(finds, "\(name), side \(side), adjust \(adjust): \(detections)") }
                    if finds { XCTAssertFalse(detections.isEmpty, "\(name), side \(side), adjust \(adjust)") }
                    if finds { found += 1 } else { notFound += 1 }
                }
            }
        }
        // Both answers occur, so neither half of the comparison is empty.
        XCTAssertGreaterThan(found, 10)
        XCTAssertGreaterThan(notFound, 100)
    }

    func testAnEmptyOrFacelessWindowHasNoFace() throws {
        let detector = try HOGFixture.detector()
        let workspace = HOGWorkspace()
        XCTAssertFalse(detector.findsFace(centredIn: GrayImage(width: 0, height: 0), within: 27, faceWidths: 60...135,
                                          adjustThreshold: 0, using: workspace))
        XCTAssertFalse(detector.findsFace(centredIn: GrayImage(width: 162, height: 162), within: 27, faceWidths: 60...135,
                                          adjustThreshold: -0.6, using: workspace))
        let coffee = try HOGFixture.gray("coffee.jpg")
        XCTAssertFalse(detector.findsFace(centredIn: window(coffee, x: 240, y: 160, side: 162), within: 27,
                                          faceWidths: 60...135, adjustThreshold: 0, using: workspace))
    }
}
