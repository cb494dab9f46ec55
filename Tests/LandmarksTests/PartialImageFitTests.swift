import FaceCore
import Foundation
import Imaging
import Landmarks
import XCTest

/// `ShapePredictor.fit(_:box:into:within:)`: a fit on an image of which only a region holds the
/// frame either says it sampled outside that region or gives the whole frame's fit exactly.
final class PartialImageFitTests: XCTestCase {
    private struct Fixture: Decodable {
        struct Case: Decodable {
            let image: String
            let box: [Int]
        }
        let cases: [Case]
    }

    func testAFitInsideTheValidRegionIsTheWholeFramesFitAndOneOutsideItSaysSo() throws {
        let data = try Data(contentsOf: ModelFixture.fixture("landmarks/landmarks.json"))
        let cases = try JSONDecoder().decode(Fixture.self, from: data).cases
        let predictor = try ModelFixture.predictor()
        var decoder = JPEGDecoder()
        var tried = 0, tooSmall = 0
        for testCase in cases {
            let image = try decoder.decodeGray(Data(contentsOf: ModelFixture.fixture("landmarks/\(testCase.image)")))
            let box = FaceBox(x: testCase.box[0], y: testCase.box[1], width: testCase.box[2], height: testCase.box[3])
            let whole = predictor.fit(image, box: box)
            var shape = FaceShape(points: [])
            XCTAssertTrue(predictor.fit(image, box: box, into: &shape, within: .whole(width: image.width, height: image.height)))
            XCTAssertEqual(shape, whole, "the whole image is valid: the plain fit")

            // The box grown by half its width on every side (what the tracker decodes), the rest
            // of the image overwritten: the same points.
            let margin = box.width / 2
            let valid = PixelRegion(x: box.x - margin, y: box.y - margin, width: box.width + 2 * margin,
                                    height: box.height + 2 * margin).clipped(width: image.width, height: image.height)
            var partial = image
            for y in 0..<image.height {
                for x in 0..<image.width where !valid.contains(PixelRegion(x: x, y: y, width: 1, height: 1)) {
                    partial[x, y] = UInt8((x * 7 + y * 13) % 256)
                }
            }
            if predictor.fit(partial, box: box, into: &shape, within: valid) {
                XCTAssertEqual(shape, whole, "a fit that stayed inside the valid region is the whole frame's")
                tried += 1
            }

            // Only the middle of the box is valid: the fit samples outside it and says so.
            let middle = PixelRegion(x: box.x + box.width / 3, y: box.y + box.height / 3, width: box.width / 3, height: box.height / 3)
            if !predictor.fit(image, box: box, into: &shape, within: middle) { tooSmall += 1 }
        }
        XCTAssertGreaterThanOrEqual(tried, cases.count - 2, "nearly every fixture fit stays within half a box width of it")
        XCTAssertEqual(tooSmall, cases.count, "every fit samples beyond the middle of its box")
    }
}
