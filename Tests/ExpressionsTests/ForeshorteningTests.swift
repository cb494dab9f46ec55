import Foundation
import XCTest
@testable import Expressions

/// The yaw correction against the generic face model it is derived from.
final class ForeshorteningTests: XCTestCase {
    /// Image width of the model segment between points `a` and `b` with the head turned by `yaw`
    /// degrees (x_camera = cos(yaw)·x − sin(yaw)·z, as in `HeadPose`).
    private func projectedWidth(_ a: Int, _ b: Int, yaw: Double) -> Double {
        let index = { GenericFaceModel.indices.firstIndex(of: $0)! }
        let p = GenericFaceModel.points[index(a)], q = GenericFaceModel.points[index(b)]
        let y = yaw * Double.pi / 180
        return abs((cos(y) * p.x - sin(y) * p.z) - (cos(y) * q.x - sin(y) * q.z))
    }

    func testFactorsAreTheModelsProjectedWidths() {
        for yaw in stride(from: -45.0, through: 45, by: 5) {
            let turn = Foreshortening(yaw: yaw)
            XCTAssertEqual(turn.leftEye, projectedWidth(42, 45, yaw: yaw) / projectedWidth(42, 45, yaw: 0), accuracy: 1e-9, "yaw \(yaw)")
            XCTAssertEqual(turn.rightEye, projectedWidth(36, 39, yaw: yaw) / projectedWidth(36, 39, yaw: 0), accuracy: 1e-9, "yaw \(yaw)")
            XCTAssertEqual(turn.span, projectedWidth(48, 54, yaw: yaw) / projectedWidth(48, 54, yaw: 0), accuracy: 1e-9, "yaw \(yaw)")
        }
    }

    func testTurningTowardsOnesLeftShrinksTheLeftEyeMost() {
        let frontal = Foreshortening.frontal
        XCTAssertEqual([frontal.leftEye, frontal.rightEye, frontal.span], [1, 1, 1])
        let turned = Foreshortening(yaw: 40)
        XCTAssertLessThan(turned.leftEye, 0.5, "the far eye keeps less than half its width")
        XCTAssertGreaterThan(turned.rightEye, 0.95, "the near eye hardly changes")
        XCTAssertEqual(Foreshortening(yaw: -40).leftEye, turned.rightEye, accuracy: 1e-12)
        XCTAssertEqual(Foreshortening(yaw: 90), Foreshortening(yaw: Foreshortening.maxYaw))
        XCTAssertEqual(Foreshortening(yaw: .nan), .frontal)
    }
}
