import FaceCore
import Foundation
import XCTest

/// The eye centres a shape gives the tracker (its tilt) and the liveness check (their distance).
final class FaceShapeTests: XCTestCase {
    /// 68 points at the origin, with the right eye's six around (10, 20) and the left eye's around `left`.
    private func shape(left: SIMD2<Float>) -> FaceShape {
        var points = [SIMD2<Float>](repeating: .zero, count: 68)
        let ring: [SIMD2<Float>] = [[-2, 0], [-1, -1], [1, -1], [2, 0], [1, 1], [-1, 1]]
        for (n, offset) in ring.enumerated() {
            points[36 + n] = SIMD2(10, 20) + offset
            points[42 + n] = left + offset
        }
        return FaceShape(points: points)
    }

    func testLevelEyesGiveNoTilt() throws {
        let level = shape(left: [40, 20])
        let eyes = try XCTUnwrap(level.eyes)
        XCTAssertEqual(eyes.right, SIMD2(10, 20))
        XCTAssertEqual(eyes.left, SIMD2(40, 20))
        XCTAssertEqual(eyes.distance, 30, accuracy: 1e-12)
        XCTAssertEqual(level.roll, 0, accuracy: 1e-12)
    }

    func testALowerLeftEyeIsAClockwiseTilt() throws {
        let tilted = shape(left: [40, 50])
        XCTAssertEqual(tilted.roll, .pi / 4, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(tilted.eyes).distance, 30 * 2.0.squareRoot(), accuracy: 1e-9)
    }

    func testAShapeWithoutEyePoints() {
        let partial = FaceShape(points: Array(repeating: .zero, count: 17))
        XCTAssertNil(partial.eyes)
        XCTAssertEqual(partial.roll, 0)
    }

    func testBoxOverlap() {
        let box = FaceBox(x: 0, y: 0, width: 10, height: 10)
        XCTAssertEqual(box.iou(FaceBox(x: 5, y: 0, width: 10, height: 10)), 50.0 / 150.0, accuracy: 1e-12)
        XCTAssertEqual(box.iou(FaceBox(x: 20, y: 20, width: 0, height: 0)), 0)
        XCTAssertEqual(box.right, 9)
        XCTAssertEqual(box.description, "[0, 0, 10, 10]")
    }
}
