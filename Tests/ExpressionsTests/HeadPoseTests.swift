import FaceCore
import Landmarks
import XCTest
@testable import Expressions

final class HeadPoseTests: XCTestCase {
    private let estimator = HeadPoseEstimator()

    /// The documented rotation R = Rz(roll) · Rx(pitch) · Ry(yaw), written out here independently
    /// of the estimator.
    private func rotate(_ p: SIMD3<Double>, yaw: Double, pitch: Double, roll: Double) -> SIMD3<Double> {
        let (y, x, z) = (yaw * .pi / 180, pitch * .pi / 180, roll * .pi / 180)
        // Ry: x' = cos·x − sin·z, z' = sin·x + cos·z
        let a = SIMD3(cos(y) * p.x - sin(y) * p.z, p.y, sin(y) * p.x + cos(y) * p.z)
        // Rx: y' = cos·y + sin·z, z' = −sin·y + cos·z
        let b = SIMD3(a.x, cos(x) * a.y + sin(x) * a.z, -sin(x) * a.y + cos(x) * a.z)
        // Rz: x' = cos·x − sin·y, y' = sin·x + cos·y
        return SIMD3(cos(z) * b.x - sin(z) * b.y, sin(z) * b.x + cos(z) * b.y, b.z)
    }

    /// The generic model rotated and projected into a 640×480 frame: orthographic at 2 px per mm
    /// (a face about 190 px wide), or with `distance` (mm) a pinhole camera with a 600 px focal
    /// length. Points that are not in the model are put at the nose tip.
    private func project(yaw: Double, pitch: Double, roll: Double, distance: Double? = nil,
                         noise: Double = 0, rng: inout SplitMix64) -> FaceShape {
        var points = [SIMD2<Float>](repeating: .zero, count: 68)
        var projected: [SIMD2<Double>] = []
        for m in GenericFaceModel.points {
            let r = rotate(m, yaw: yaw, pitch: pitch, roll: roll)
            var q: SIMD2<Double>
            if let d = distance {
                q = SIMD2(r.x, r.y) * 600 / (d + r.z)
            } else {
                q = SIMD2(r.x, r.y) * 2
            }
            q += SIMD2(320, 240) + SIMD2(rng.gaussian(), rng.gaussian()) * noise
            projected.append(q)
        }
        for i in 0..<68 { points[i] = SIMD2<Float>(projected[3]) }
        for (k, i) in GenericFaceModel.indices.enumerated() { points[i] = SIMD2<Float>(projected[k]) }
        return FaceShape(points: points)
    }

    private let grid: [(Double, Double, Double)] = {
        var g: [(Double, Double, Double)] = []
        for yaw in [-45.0, -20, 0, 15, 35] {
            for pitch in [-25.0, 0, 20] {
                for roll in [-30.0, 0, 12] { g.append((yaw, pitch, roll)) }
            }
        }
        return g
    }()

    func testRecoversKnownAnglesFromOrthographicProjection() throws {
        var rng = SplitMix64(seed: 3)
        for (yaw, pitch, roll) in grid {
            let pose = try estimator.estimate(project(yaw: yaw, pitch: pitch, roll: roll, rng: &rng))
            XCTAssertEqual(pose.yaw, yaw, accuracy: 0.01, "\(yaw) \(pitch) \(roll)")
            XCTAssertEqual(pose.pitch, pitch, accuracy: 0.01, "\(yaw) \(pitch) \(roll)")
            XCTAssertEqual(pose.roll, roll, accuracy: 0.01, "\(yaw) \(pitch) \(roll)")
        }
    }

    func testPerspectiveAndLandmarkNoiseStayWithinAFewDegrees() throws {
        // Face 600 mm from a camera with a 600 px focal length (a 640 px wide webcam frame):
        // the face is ~95 px wide. Landmark noise σ = 1 px. (Measured worst error: 3.1°.)
        var rng = SplitMix64(seed: 11)
        var worst = 0.0
        for (yaw, pitch, roll) in grid {
            let shape = project(yaw: yaw, pitch: pitch, roll: roll, distance: 600, noise: 1, rng: &rng)
            let pose = try estimator.estimate(shape)
            worst = max(worst, abs(pose.yaw - yaw), abs(pose.pitch - pitch), abs(pose.roll - roll))
        }
        XCTAssertLessThan(worst, 4, "worst angle error \(worst)°")
    }

    func testSignConventions() throws {
        var rng = SplitMix64(seed: 5)
        let frontal = project(yaw: 0, pitch: 0, roll: 0, rng: &rng)
        // Turning to the person's left (yaw > 0) moves the nose tip to the image's right of the
        // eye midpoint; looking up (pitch > 0) moves it up towards the eyes; roll > 0 puts the
        // person's left eye (45, image right) lower than the right one (36).
        func noseOffset(_ s: FaceShape) -> SIMD2<Float> { s[30] - (s[39] + s[42]) / 2 }
        let left = project(yaw: 20, pitch: 0, roll: 0, rng: &rng)
        XCTAssertGreaterThan(noseOffset(left).x, noseOffset(frontal).x + 5)
        XCTAssertGreaterThan(try estimator.estimate(left).yaw, 0)
        let up = project(yaw: 0, pitch: 15, roll: 0, rng: &rng)
        XCTAssertLessThan(noseOffset(up).y, noseOffset(frontal).y - 5)
        XCTAssertGreaterThan(try estimator.estimate(up).pitch, 0)
        let tilted = project(yaw: 0, pitch: 0, roll: 10, rng: &rng)
        XCTAssertGreaterThan(tilted[45].y, tilted[36].y + 10)
        XCTAssertGreaterThan(try estimator.estimate(tilted).roll, 0)
    }

    func testRealPortraits() throws {
        // Two near-frontal portraits (dlib landmarks): small yaw, and a roll that matches the
        // angle of the line between the eye centres (3.52° and −2.22°, computed with numpy).
        let faces = try ReferenceFaces.load()
        let eyeLine = ["astronaut": 3.52, "grace_hopper": -2.22]
        for face in faces.faces {
            let pose = try estimator.estimate(face.shape)
            XCTAssertLessThan(abs(pose.yaw), 8, face.name)
            XCTAssertLessThan(abs(pose.pitch), 15, face.name)
            XCTAssertEqual(pose.roll, eyeLine[face.name] ?? .nan, accuracy: 1.5, face.name)
        }
    }
}
