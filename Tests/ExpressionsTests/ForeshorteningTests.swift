import Foundation
import XCTest
@testable import Expressions

/// The yaw correction against the projections it is derived from: the mouth span from the generic
/// face model, the eyes from a segment turned `eyeAngle` out of the image plane.
final class ForeshorteningTests: XCTestCase {
    /// Image width of the model segment between points `a` and `b` with the head turned by `yaw`
    /// degrees (x_camera = cos(yaw)·x − sin(yaw)·z, as in `HeadPose`).
    private func projectedWidth(_ a: Int, _ b: Int, yaw: Double) -> Double {
        let index = { GenericFaceModel.indices.firstIndex(of: $0)! }
        let p = GenericFaceModel.points[index(a)], q = GenericFaceModel.points[index(b)]
        let y = yaw * Double.pi / 180
        return abs((cos(y) * p.x - sin(y) * p.z) - (cos(y) * q.x - sin(y) * q.z))
    }

    /// Image width of a 30 mm eye whose outer corner lies `eyeAngle` deeper than its inner one, on
    /// the person's left (`side` 1) or right (-1), with the head turned by `yaw` degrees.
    private func eyeWidth(side: Double, yaw: Double) -> Double {
        let inner = SIMD2(side * 20, 30.0), outer = inner + SIMD2(side * 30 * cos(Foreshortening.eyeAngle), 30 * sin(Foreshortening.eyeAngle))
        let y = yaw * Double.pi / 180
        return abs((cos(y) * outer.x - sin(y) * outer.y) - (cos(y) * inner.x - sin(y) * inner.y))
    }

    func testFactorsAreTheProjectedWidths() {
        for yaw in stride(from: -45.0, through: 45, by: 5) {
            let turn = Foreshortening(yaw: yaw)
            XCTAssertEqual(turn.leftEye, eyeWidth(side: 1, yaw: yaw) / eyeWidth(side: 1, yaw: 0), accuracy: 1e-9, "yaw \(yaw)")
            XCTAssertEqual(turn.rightEye, eyeWidth(side: -1, yaw: yaw) / eyeWidth(side: -1, yaw: 0), accuracy: 1e-9, "yaw \(yaw)")
            XCTAssertEqual(turn.span, projectedWidth(48, 54, yaw: yaw) / projectedWidth(48, 54, yaw: 0), accuracy: 1e-9, "yaw \(yaw)")
        }
    }

    func testTurningTowardsOnesLeftShrinksTheLeftEyeMost() {
        let frontal = Foreshortening.frontal
        XCTAssertEqual([frontal.leftEye, frontal.rightEye, frontal.span], [1, 1, 1])
        let turned = Foreshortening(yaw: 40)
        XCTAssertEqual(turned.leftEye, 0.62, accuracy: 0.01, "the far eye keeps about 60 % of its width")
        XCTAssertEqual(turned.rightEye, 0.91, accuracy: 0.01, "the near eye keeps about 90 %")
        XCTAssertEqual(Foreshortening(yaw: -40).leftEye, turned.rightEye, accuracy: 1e-12)
        XCTAssertEqual(Foreshortening(yaw: 90), Foreshortening(yaw: Foreshortening.maxYaw))
        XCTAssertEqual(Foreshortening(yaw: .nan), .frontal)
    }
}
