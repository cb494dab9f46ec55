import FaceCore
import Landmarks
import XCTest
@testable import Expressions

final class ExpressionTrackerTests: XCTestCase {
    /// dlib's mean face, 200 px wide, at (220, 140) in a 640×480 frame; `eyes` scales the lid
    /// openings (EAR × eyes), `jaw` moves the lower inner lip down by that many pixels.
    private func face(mean: [SIMD2<Float>], eyes: Float = 1, jaw: Float = 0) -> FaceShape {
        var p = mean.map { $0 * 200 + SIMD2(220, 140) }
        for first in [36, 42] {
            let centreY = (p[first].y + p[first + 3].y) / 2
            for i in [1, 2, 4, 5] { p[first + i].y = centreY + (p[first + i].y - centreY) * eyes }
        }
        for i in 65...67 { p[i].y += jaw }
        return FaceShape(points: p)
    }

    func testShapesDriveBlinkAndMouthEvents() throws {
        let mean = try ReferenceFaces.load().meanShape
        var tracker = ExpressionTracker()
        var events: [(t: Double, event: ExpressionEvent)] = []
        var measures: [FaceMeasures] = []
        for i in 0..<180 {
            let t = Double(i) / 30
            let eyes: Float = (60..<64).contains(i) ? 0.2 : 1  // a 4-frame blink at 2.0 s
            let jaw: Float = (90..<120).contains(i) ? 30 : 0  // mouth open 3.0 … 4.0 s
            measures.append(try tracker.update(face(mean: mean, eyes: eyes, jaw: jaw), frameWidth: 640, frameHeight: 480, t: t) {
                events.append((t, $0))
            })
        }
        tracker.lost(t: 6.0) { events.append((6.0, $0)) }

        XCTAssertEqual(measures[0].earLeft, 0.3059, accuracy: 1e-3, "the mean shape's EAR")
        XCTAssertLessThan(measures[60].earLeft, 0.07, "lids at 20 % of their opening")
        XCTAssertEqual(measures[0].nose.x, Double(0.5 * 200 + 220) / 640, accuracy: 1e-4)
        XCTAssertEqual(measures[0].pose.yaw, 0, accuracy: 0.5)
        XCTAssertEqual(measures[0].pose.roll, 0, accuracy: 0.5)

        XCTAssertEqual(events.count, 3, "\(events)")
        guard events.count == 3 else { return }
        XCTAssertEqual(events[0].t, 64.0 / 30, accuracy: 1e-9)
        guard case .blink(let start, let duration) = events[0].event else { return XCTFail("\(events[0])") }
        XCTAssertEqual(start, 2.0, accuracy: 1e-9)
        XCTAssertEqual(duration, 4.0 / 30, accuracy: 1e-9)
        guard case .mouthOpen(.start, let mar) = events[1].event else { return XCTFail("\(events[1])") }
        XCTAssertEqual(events[1].t, 96.0 / 30, accuracy: 1e-9, "0.2 s after opening")
        XCTAssertEqual(mar, measures[96].mar)
        guard case .mouthOpen(.end, _) = events[2].event else { return XCTFail("\(events[2])") }
        XCTAssertEqual(events[2].t, 125.0 / 30, accuracy: 1e-9, "first frame 0.15 s after closing")
    }

    func testLostTrackEndsAnOpenMouth() throws {
        let mean = try ReferenceFaces.load().meanShape
        var tracker = ExpressionTracker()
        var events: [ExpressionEvent] = []
        for i in 0..<60 {
            try tracker.update(face(mean: mean, jaw: i >= 30 ? 30 : 0), frameWidth: 640, frameHeight: 480, t: Double(i) / 30) {
                events.append($0)
            }
        }
        tracker.lost(t: 59.0 / 30) { events.append($0) }  // lost within the last frame's time
        XCTAssertEqual(events.count, 2)
        if case .mouthOpen(.start, _)? = events.first {} else { XCTFail("\(events)") }
        if case .mouthOpen(.end, _)? = events.last {} else { XCTFail("\(events)") }
    }

    func testWrongShapeThrowsAndLeavesStateAlone() {
        var tracker = ExpressionTracker()
        XCTAssertThrowsError(try tracker.update(FaceShape(points: []), frameWidth: 640, frameHeight: 480, t: 0) { _ in }) {
            XCTAssertEqual($0 as? ExpressionError, .wrongPointCount(0))
        }
        XCTAssertFalse(tracker.blink.isArmed)
    }
}
