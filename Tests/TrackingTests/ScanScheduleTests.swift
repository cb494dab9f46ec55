import Detection
import Imaging
import Landmarks
import Tracking
import XCTest

/// When the full-frame detector runs: rarely on an empty still view, soon after the view changes,
/// and on a schedule while faces are tracked so a second face walking in is found.
final class ScanScheduleTests: XCTestCase {
    /// A flat gray view with fresh sensor noise (±4 levels) on every frame.
    private func noisyView(width: Int = 640, height: Int = 480, seed: UInt64) -> GrayImage {
        var image = GrayImage(width: width, height: height, fill: 110)
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        for i in image.pixels.indices {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            image.pixels[i] = UInt8(106 + Int(state % 9))
        }
        return image
    }

    /// `patch` (a rectangle of `source`) copied into `canvas` with its top-left at (x, y), clipped.
    private func paste(_ source: GrayImage, x sx: Int, y sy: Int, width: Int, height: Int,
                       into canvas: inout GrayImage, x: Int, y: Int) {
        for row in 0..<height {
            let ty = y + row, fy = sy + row
            guard ty >= 0, ty < canvas.height, fy >= 0, fy < source.height else { continue }
            for column in 0..<width {
                let tx = x + column, fx = sx + column
                if tx >= 0, tx < canvas.width, fx >= 0, fx < source.width { canvas[tx, ty] = source[fx, fy] }
            }
        }
    }

    func testAStillEmptyViewIsScannedOncePerIntervalAndAFaceWalkingInIsFoundWithinAThirdOfASecond() throws {
        let detector = try TrackingFixtures.detector()
        let looks = detector.looks
        let tracker = try FaceTracker(detector: detector, predictor: TrackingFixtures.predictor())
        let views = (0..<4).map { noisyView(seed: UInt64($0 + 1)) }
        // 10 s of an empty view: one full search (all looks, on consecutive frames) on the first
        // frame, then look 0 alone once a second.
        for n in 0..<300 {
            tracker.update(views[n % views.count], t: Double(n) / 30)
            XCTAssertTrue(tracker.faces.isEmpty, "frame \(n)")
        }
        print("empty view: \(tracker.detectorRuns) full-frame looks in 300 frames (\(looks) looks per search)")
        XCTAssertGreaterThanOrEqual(tracker.detectorRuns, looks + 9)
        XCTAssertLessThanOrEqual(tracker.detectorRuns, looks + 10, "a still empty view is scanned once a second")
        // Then a face slides in from the left over 0.4 s and stays.
        let face = try TrackingFixtures.gray("landmarks/hog/astronaut_w120.jpg")
        var foundAt: Double?
        for n in 300..<330 {
            let t = Double(n) / 30
            var frame = views[n % views.count]
            let x = min(200, -220 + (n - 300) * 35)  // in view (x >= 0) from frame 307
            paste(face, x: 320, y: 150, width: 220, height: 230, into: &frame, x: x, y: 150)
            tracker.update(frame, t: t)
            if foundAt == nil, !tracker.found.isEmpty { foundAt = t }
        }
        let found = try XCTUnwrap(foundAt, "the face walking in is found")
        let fullyInView = 307.0 / 30
        print("face walking in: fully in view at \(fullyInView) s, found at \(found) s")
        XCTAssertLessThanOrEqual(found - fullyInView, 0.3 + 1e-9)
    }

    func testASecondFaceWalkingInIsFoundWithinASecondAndTheFirstKeepsItsId() throws {
        let first = try TrackingFixtures.gray("landmarks/hog/astronaut_w120.jpg")
        let second = try TrackingFixtures.gray("landmarks/hog/hopper_w100.jpg")
        let tracker = try FaceTracker(detector: TrackingFixtures.detector(), predictor: TrackingFixtures.predictor())
        var firstID: Int?
        var secondID: Int?
        var secondFoundAt: Double?
        let arrives = 2.0  // the second face is fully in view from here
        for n in 0..<120 {
            let t = Double(n) / 30
            var frame = first
            // Grace Hopper's head slides in from the left edge between 1.5 s and 2.0 s.
            let x = Int((-230 + 250 * min(max((t - 1.5) / 0.5, 0), 1)).rounded())
            if t >= 1.5 { paste(second, x: 270, y: 100, width: 210, height: 220, into: &frame, x: x, y: 120) }
            tracker.update(frame, t: t)
            if n == 0 { firstID = tracker.faces.first?.id }
            XCTAssertTrue(tracker.faces.contains { $0.id == firstID }, "frame \(n): the first face keeps its id")
            XCTAssertFalse(tracker.lost.contains { $0 == firstID }, "frame \(n)")
            if secondFoundAt == nil, let id = tracker.found.first(where: { $0 != firstID }) {
                secondFoundAt = t
                secondID = id
            }
            if let secondID, t < 3.9 { XCTAssertTrue(tracker.faces.contains { $0.id == secondID }, "frame \(n): the second face keeps its id") }
        }
        XCTAssertNotNil(firstID)
        let found = try XCTUnwrap(secondFoundAt, "the second face is found")
        print("second face: fully in view at \(arrives) s, found at \(found) s")
        XCTAssertLessThanOrEqual(found - arrives, 1.0 + 1e-9)
        XCTAssertEqual(tracker.faces.count, 2)
    }
}
