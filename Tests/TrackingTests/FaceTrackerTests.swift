import Detection
import Foundation
import Imaging
import Landmarks
import Tracking
import XCTest

/// The tracker on a real face moved across the frame, hidden and shown again.
final class FaceTrackerTests: XCTestCase {
    /// The frame moved by (dx, dy) pixels over a flat background.
    private func shifted(_ image: GrayImage, dx: Int, dy: Int, background: UInt8 = 96) -> GrayImage {
        var out = GrayImage(width: image.width, height: image.height, fill: background)
        for y in 0..<image.height {
            let sy = y - dy
            guard sy >= 0, sy < image.height else { continue }
            for x in 0..<image.width {
                let sx = x - dx
                if sx >= 0, sx < image.width { out[x, y] = image[sx, sy] }
            }
        }
        return out
    }

    private func noseTip(_ face: TrackedFace) -> SIMD2<Float> { face.shape[30] }

    func testAMovingFaceKeepsItsIdAndTheDetectorRunsRarely() throws {
        let source = try TrackingFixtures.gray("landmarks/hog/astronaut_w120.jpg")
        let predictor = try TrackingFixtures.predictor()
        let tracker = try FaceTracker(detector: TrackingFixtures.detector(), predictor: predictor)
        // Reference: where the nose tip is without motion.
        tracker.update(source, t: 0)
        let id = try XCTUnwrap(tracker.faces.first?.id)
        XCTAssertEqual(tracker.found, [id])
        let restingNose = noseTip(tracker.faces[0])
        let frames = 150  // 5 s at 30 fps: a face swaying ±60 px sideways and ±20 px up and down
        for n in 1..<frames {
            let t = Double(n) / 30
            let dx = Int((60 * sin(2 * Double.pi * t / 2.5)).rounded())
            let dy = Int((20 * sin(2 * Double.pi * t / 1.7)).rounded())
            tracker.update(shifted(source, dx: dx, dy: dy), t: t)
            XCTAssertEqual(tracker.faces.map(\.id), [id], "frame \(n)")
            XCTAssertTrue(tracker.found.isEmpty && tracker.lost.isEmpty, "frame \(n)")
            if let face = tracker.faces.first {
                let error = noseTip(face) - restingNose - SIMD2(Float(dx), Float(dy))
                XCTAssertLessThan(max(abs(error.x), abs(error.y)), 4, "frame \(n): the landmarks follow the face")
            }
        }
        XCTAssertLessThanOrEqual(tracker.detectorRuns, frames / 15, "full-frame detector on at most 1 frame in 15")
        print("tracking: \(tracker.detectorRuns) full-frame detections in \(frames) frames")
    }

    func testAFaceThatLeavesIsLostAndComesBackWithANewId() throws {
        let source = try TrackingFixtures.gray("landmarks/hog/astronaut_w120.jpg")
        let empty = GrayImage(width: source.width, height: source.height, fill: 96)
        let tracker = try FaceTracker(detector: TrackingFixtures.detector(), predictor: TrackingFixtures.predictor())
        var found: [(frame: Int, id: Int)] = [], lost: [(frame: Int, id: Int)] = []
        for n in 0..<90 {
            let image = (30..<60).contains(n) ? empty : source
            tracker.update(image, t: Double(n) / 30)
            found += tracker.found.map { (n, $0) }
            lost += tracker.lost.map { (n, $0) }
        }
        XCTAssertEqual(found.count, 2)
        XCTAssertEqual(lost.count, 1)
        guard found.count == 2, lost.count == 1 else { return }
        XCTAssertEqual(found[0].frame, 0)
        XCTAssertEqual(lost[0].id, found[0].id)
        XCTAssertLessThanOrEqual(lost[0].frame, 30 + 10, "lost within a third of a second of leaving")
        XCTAssertLessThanOrEqual(found[1].frame, 60 + 9, "found again within 0.3 s of coming back (the view changed)")
        XCTAssertNotEqual(found[1].id, found[0].id)
    }

    func testATiltedHeadIsFoundAndStaysTracked() throws {
        let source = try TrackingFixtures.gray("landmarks/hog/astronaut_rot-20.jpg")
        let tracker = try FaceTracker(detector: TrackingFixtures.detector(), predictor: TrackingFixtures.predictor())
        var firstFound: Int?
        for n in 0..<60 {
            tracker.update(source, t: Double(n) / 30)
            if firstFound == nil, !tracker.found.isEmpty { firstFound = n }
            if firstFound != nil { XCTAssertEqual(tracker.faces.count, 1, "frame \(n)") }
            XCTAssertTrue(tracker.lost.isEmpty, "frame \(n)")
        }
        XCTAssertLessThanOrEqual(try XCTUnwrap(firstFound), 2)
    }

    func testSeveralFacesAreTrackedUpToTheLimitLargestFirst() throws {
        let image = try TrackingFixtures.gray("detection/several.jpg")
        let predictor = try TrackingFixtures.predictor()
        let one = try FaceTracker(detector: TrackingFixtures.detector(), predictor: predictor, settings: TrackerSettings(maxFaces: 1))
        let three = try FaceTracker(detector: TrackingFixtures.detector(), predictor: predictor,
                                    settings: TrackerSettings(maxFaces: 3))
        var ids: [Int] = []
        for n in 0..<40 {
            one.update(image, t: Double(n) / 30)
            three.update(image, t: Double(n) / 30)
            XCTAssertEqual(one.faces.count, 1, "frame \(n)")
            XCTAssertEqual(three.faces.count, 3, "frame \(n)")
            if n == 0 { ids = three.faces.map(\.id) }
            XCTAssertEqual(three.faces.map(\.id), ids, "frame \(n): ids are stable")
        }
        XCTAssertGreaterThan(one.facesInView, 1, "the detector still counts every face in view")
        let largest = Double(three.faces.map(\.box.width).max() ?? 0)
        XCTAssertEqual(Double(one.faces.first?.box.width ?? 0), largest, accuracy: 0.15 * largest)
    }

    func testEmptyAndTinyFramesAreHandled() throws {
        let tracker = try FaceTracker(detector: TrackingFixtures.detector(), predictor: TrackingFixtures.predictor())
        for (n, image) in [GrayImage(width: 0, height: 0), GrayImage(width: 3, height: 2), GrayImage(width: 640, height: 1)].enumerated() {
            tracker.update(image, t: Double(n))
            XCTAssertTrue(tracker.faces.isEmpty)
        }
    }
}
