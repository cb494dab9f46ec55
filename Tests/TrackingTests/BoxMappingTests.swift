import Detection
import FaceCore
import Imaging
import Landmarks
import Tracking
import XCTest

/// Landmarks fitted from our detector's boxes must agree with dlib's landmarks fitted from
/// dlib's own HOG boxes (the boxes the model was trained on).
final class BoxMappingTests: XCTestCase {
    func testLandmarksFromOurBoxesAgreeWithDlibsFromItsHOGBoxes() throws {
        let predictor = try TrackingFixtures.predictor()
        var errors: [Double] = []
        for image in try TrackingFixtures.hogFaces().images {
            guard let reference = image.points_float?.map({ SIMD2($0[0], $0[1]) }) else { continue }
            let gray = try TrackingFixtures.gray("landmarks/\(image.file)")
            // The tracker's own path: detection (upright, then turned ±20° on the next frames),
            // calibrated box, fit, refit in the box of those landmarks.
            let tracker = try FaceTracker(detector: TrackingFixtures.detector(minSize: 40), predictor: predictor)
            var frame = 0
            while tracker.faces.isEmpty && frame < 3 {
                tracker.update(gray, t: Double(frame) / 30)
                frame += 1
            }
            guard let face = tracker.faces.first else {
                XCTFail("\(image.file): no face found")
                continue
            }
            let iod = TrackingFixtures.interocular(reference)
            var total = 0.0
            for (p, r) in zip(face.shape.points, reference) {
                let d = SIMD2<Double>(p) - r
                total += (d * d).sum().squareRoot()
            }
            errors.append(total / 68 / iod)
            print("box mapping \(image.file): mean error \(String(format: "%.2f", 100 * total / 68 / iod))% of IOD after \(frame) frame(s)")
        }
        XCTAssertGreaterThanOrEqual(errors.count, 15)
        let average = errors.reduce(0, +) / Double(errors.count)
        print("box mapping: average \(String(format: "%.2f", 100 * average))% of IOD over \(errors.count) faces, worst \(String(format: "%.2f", 100 * (errors.max() ?? 0)))%")
        XCTAssertLessThanOrEqual(average, 0.02)
    }

    func testBoxFromDlibsOwnLandmarksSitsOnDlibsHOGBox() throws {
        let predictor = try TrackingFixtures.predictor()
        var ious: [Double] = []
        for image in try TrackingFixtures.hogFaces().images {
            guard let points = image.points_float, let b = image.hog_box else { continue }
            let shape = FaceShape(points: points.map { SIMD2(Float($0[0]), Float($0[1])) })
            ious.append(predictor.box(fitting: shape).iou(FaceBox(x: b[0], y: b[1], width: b[2], height: b[3])))
        }
        XCTAssertGreaterThanOrEqual(ious.count, 12)
        XCTAssertGreaterThan(ious.min() ?? 0, 0.7)
        XCTAssertGreaterThan(ious.reduce(0, +) / Double(ious.count), 0.8)
    }

    func testCalibrationRoundTrips() {
        let box = FaceBox(x: 100, y: 80, width: 150, height: 150)
        for calibration in [BoxCalibration.haarFrontalFaceAlt, .lbpFrontalFaceImproved] {
            let back = calibration.cascadeBox(for: calibration.modelBox(for: box))
            XCTAssertLessThanOrEqual(abs(back.x - box.x), 1)
            XCTAssertLessThanOrEqual(abs(back.y - box.y), 1)
            XCTAssertLessThanOrEqual(abs(back.width - box.width), 1)
        }
        XCTAssertEqual(BoxCalibration.forCascade(at: "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface_improved.xml"),
                       .lbpFrontalFaceImproved)
        XCTAssertEqual(BoxCalibration.forCascade(at: "/some/other.xml"), .haarFrontalFaceAlt)
    }
}
