import FaceCore
import Landmarks
import XCTest
@testable import Expressions

final class FaceMeasuresTests: XCTestCase {
    /// A 68-point shape with every point at `fill`, then the given points set.
    private func shape(_ points: [Int: SIMD2<Float>], fill: SIMD2<Float> = SIMD2(100, 100)) -> FaceShape {
        var p = [SIMD2<Float>](repeating: fill, count: 68)
        for (i, v) in points { p[i] = v }
        return FaceShape(points: p)
    }

    /// Six eye points p1…p6 at `origin`: |p2−p6| = 2, |p3−p5| = 1, |p1−p4| = 4 → EAR 3/8.
    private func eye(at origin: SIMD2<Float>, first: Int, height: Float = 1) -> [Int: SIMD2<Float>] {
        let offsets: [SIMD2<Float>] = [SIMD2(0, 0), SIMD2(1, -height), SIMD2(3, -height / 2),
                                       SIMD2(4, 0), SIMD2(3, height / 2), SIMD2(1, height)]
        return Dictionary(uniqueKeysWithValues: offsets.enumerated().map { (first + $0.offset, origin + $0.element) })
    }

    func testEyeAspectRatioOfConstructedEyes() throws {
        // Person's left eye (42–47): heights 2 and 1 over width 4 = 0.375; right eye (36–41)
        // with half the height: 0.1875.
        var points = eye(at: SIMD2(150, 100), first: 42)
        points.merge(eye(at: SIMD2(50, 100), first: 36, height: 0.5)) { a, _ in a }
        let m = try FaceMeasures(shape: shape(points), frameWidth: 640, frameHeight: 480, poseEstimator: HeadPoseEstimator())
        XCTAssertEqual(m.earLeft, 0.375, accuracy: 1e-6)
        XCTAssertEqual(m.earRight, 0.1875, accuracy: 1e-6)
    }

    func testMouthAspectRatioOfConstructedLips() throws {
        // Inner lips: width |60−64| = 10, openings 2, 4, 2 → (2 + 4 + 2) / 20 = 0.4.
        let s = shape([60: SIMD2(0, 0), 64: SIMD2(10, 0), 61: SIMD2(2.5, -1), 67: SIMD2(2.5, 1),
                       62: SIMD2(5, -2), 66: SIMD2(5, 2), 63: SIMD2(7.5, -1), 65: SIMD2(7.5, 1)])
        s.points.withUnsafeBufferPointer { XCTAssertEqual(FaceGeometry.mouthAspectRatio($0), 0.4, accuracy: 1e-6) }
    }

    func testSmileScoreOfConstructedMouthAndRollInvariance() {
        // Eye centres 60 px apart, mouth 60 px wide (ratio 1.0), corners 2 px above the lip
        // centre (mean y of 51, 57, 62, 66 = 62): 2.5 × ((1.0 − 0.85) + 2/60) = 0.458333.
        var points: [Int: SIMD2<Float>] = [48: SIMD2(-30, 60), 54: SIMD2(30, 60), 51: SIMD2(0, 55),
                                           57: SIMD2(0, 69), 62: SIMD2(0, 60), 66: SIMD2(0, 64)]
        for i in 36..<42 { points[i] = SIMD2(-30, 0) }
        for i in 42..<48 { points[i] = SIMD2(30, 0) }
        let upright = shape(points, fill: SIMD2(0, 30))
        upright.points.withUnsafeBufferPointer { XCTAssertEqual(FaceGeometry.smileScore($0), 0.458333, accuracy: 1e-5) }
        // The same face tilted by 25° and shifted scores the same.
        let a = Float(25 * Double.pi / 180)
        let tilted = FaceShape(points: upright.points.map {
            SIMD2($0.x * cos(a) - $0.y * sin(a) + 300, $0.x * sin(a) + $0.y * cos(a) + 200)
        })
        tilted.points.withUnsafeBufferPointer { XCTAssertEqual(FaceGeometry.smileScore($0), 0.458333, accuracy: 1e-4) }
    }

    func testNoseIsNormalisedByFrameSize() throws {
        let m = try FaceMeasures(shape: shape([30: SIMD2(320, 120)]), frameWidth: 640, frameHeight: 480,
                                 poseEstimator: HeadPoseEstimator())
        XCTAssertEqual(m.nose, SIMD2(0.5, 0.25))
    }

    func testDegenerateShapeGivesFiniteZeroRatios() throws {
        let m = try FaceMeasures(shape: shape([:]), frameWidth: 640, frameHeight: 480, poseEstimator: HeadPoseEstimator())
        XCTAssertEqual([m.earLeft, m.earRight, m.mar, m.smile], [0, 0, 0, 0])
        XCTAssertTrue(m.pose.yaw.isFinite && m.pose.pitch.isFinite && m.pose.roll.isFinite)
    }

    func testBadInputThrows() {
        let five = FaceShape(points: [SIMD2<Float>](repeating: .zero, count: 5))
        XCTAssertThrowsError(try FaceMeasures(shape: five, frameWidth: 640, frameHeight: 480, poseEstimator: HeadPoseEstimator())) {
            XCTAssertEqual($0 as? ExpressionError, .wrongPointCount(5))
        }
        XCTAssertThrowsError(try FaceMeasures(shape: shape([:]), frameWidth: 0, frameHeight: 480, poseEstimator: HeadPoseEstimator())) {
            XCTAssertEqual($0 as? ExpressionError, .invalidFrameSize(width: 0, height: 480))
        }
    }

    func testMeasuresOfRealDlibLandmarks() throws {
        // Reference values from an independent numpy implementation of the same formulas on the
        // dlib landmarks (Scripts/make_expression_fixtures.py output).
        let faces = try ReferenceFaces.load()
        let expected: [String: [Double]] = [
            // ear_left, ear_right, mar, smile, nose x, nose y
            "astronaut": [0.390261, 0.352365, 0.270964, 0.930376, 0.439453, 0.248047],
            "grace_hopper": [0.304895, 0.305477, 0.008619, -0.031885, 0.521484, 0.396667],
        ]
        XCTAssertEqual(faces.faces.count, 2)
        for face in faces.faces {
            let m = try FaceMeasures(shape: face.shape, frameWidth: face.width, frameHeight: face.height,
                                     poseEstimator: HeadPoseEstimator())
            let raw = face.shape.points.withUnsafeBufferPointer { p in
                [FaceGeometry.eyeAspectRatio(p, first: 42), FaceGeometry.eyeAspectRatio(p, first: 36),
                 FaceGeometry.mouthAspectRatio(p), FaceGeometry.smileScore(p), m.nose.x, m.nose.y]
            }
            for (g, e) in zip(raw, expected[face.name] ?? []) { XCTAssertEqual(g, e, accuracy: 2e-6, face.name) }
            // The measures are the ratios corrected for the estimated yaw (a few degrees here).
            let turn = Foreshortening(yaw: m.pose.yaw)
            XCTAssertEqual(m.earLeft, raw[0] * turn.leftEye, accuracy: 1e-12)
            XCTAssertEqual(m.earRight, raw[1] * turn.rightEye, accuracy: 1e-12)
            XCTAssertEqual(m.mar, raw[2] * turn.span, accuracy: 1e-12)
            XCTAssertLessThan(abs(m.pose.yaw), 10, face.name)
        }
    }

    func testRealFacesSmileAndMouthAgainstTheDefaultThresholds() throws {
        // The smiling astronaut is past the smile start threshold over a neutral face (0 + 0.35)
        // but her parted lips are not an open mouth (0.03 + 0.3); Grace Hopper is neutral.
        let faces = try ReferenceFaces.load()
        let estimator = HeadPoseEstimator()
        let astronaut = try XCTUnwrap(faces.face("astronaut")), hopper = try XCTUnwrap(faces.face("grace_hopper"))
        let a = try FaceMeasures(shape: astronaut.shape, frameWidth: 512, frameHeight: 512, poseEstimator: estimator)
        let h = try FaceMeasures(shape: hopper.shape, frameWidth: 512, frameHeight: 600, poseEstimator: estimator)
        XCTAssertGreaterThan(a.smile, StateSettings.smile.fallbackBaseline + StateSettings.smile.startDelta)
        XCTAssertLessThan(a.mar, StateSettings.mouthOpen.fallbackBaseline + StateSettings.mouthOpen.startDelta)
        XCTAssertLessThan(h.smile, StateSettings.smile.fallbackBaseline + StateSettings.smile.endDelta)
        XCTAssertLessThan(h.mar, StateSettings.mouthOpen.fallbackBaseline + StateSettings.mouthOpen.endDelta)
        // Open eyes on both, well above the absolute close threshold.
        for m in [a, h] {
            XCTAssertGreaterThan(min(m.earLeft, m.earRight), BlinkSettings().fallbackOpen * BlinkSettings().reopenRatio)
        }
    }
}
