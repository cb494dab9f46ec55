import FaceCore
import Foundation
import HOGDetection
import Imaging
import Landmarks
@testable import Detection
import XCTest

/// How the HOG detector scans frames larger than 640×480: for faces as large, relative to the
/// frame, as it finds on 640×480, with exactly dlib's detections on the levels it scans.
final class LargeFrameScanTests: XCTestCase {
    private static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    func testTheLevelsScannedFollowTheFrameSize() {
        for upsample in 0...2 {
            let small = HOGFaceDetector.scan(width: 640, height: 480, upsample: upsample, window: 80)
            XCTAssertEqual(small.upsample, upsample, "640×480 as dlib scans it")
            XCTAssertNil(small.faceWidths)
            let smaller = HOGFaceDetector.scan(width: 320, height: 240, upsample: upsample, window: 80)
            XCTAssertEqual(smaller.upsample, upsample)
            XCTAssertNil(smaller.faceWidths)
        }
        // 1920×1080 is 2.25 times 640×480 (by height): faces from 180 px, one pyramid step less.
        let hd = HOGFaceDetector.scan(width: 1920, height: 1080, upsample: 0, window: 80)
        XCTAssertEqual(hd.upsample, 0)
        XCTAssertEqual(try XCTUnwrap(hd.faceWidths).lowerBound, 150, accuracy: 1e-9)
        // The small-face look (one upsampling on 640×480, faces from 40 px) needs none: 90 px.
        let hdSmall = HOGFaceDetector.scan(width: 1920, height: 1080, upsample: 1, window: 80)
        XCTAssertEqual(hdSmall.upsample, 0)
        XCTAssertEqual(try XCTUnwrap(hdSmall.faceWidths).lowerBound, 75, accuracy: 1e-9)
        // 1280×720 is 1.5 times: 60 px faces still need one upsampling (a 40 px window).
        let hdReady = HOGFaceDetector.scan(width: 1280, height: 720, upsample: 1, window: 80)
        XCTAssertEqual(hdReady.upsample, 1)
        XCTAssertEqual(try XCTUnwrap(hdReady.faceWidths).lowerBound, 50, accuracy: 1e-9)
    }

    func testALargeFrameGivesDlibsDetectionsOfItsFaces() throws {
        let model = try FrontalFaceDetector(contentsOf: Self.root.appendingPathComponent("Models/dlib_frontal_face_detector.dat").path)
        let folder = Self.root.appendingPathComponent("Recordings/hd/pexels-langer-720p")
        let index = try String(contentsOf: folder.appendingPathComponent("frames.jsonl"), encoding: .utf8).split(separator: "\n")
        let stream = try Data(contentsOf: folder.appendingPathComponent("frames.mjpeg"))
        var decoder = JPEGDecoder()
        var detector = HOGFaceDetector(model: model)
        var faces: [DetectedFace] = []
        var compared = 0
        for line in index.enumerated().filter({ $0.offset % 20 == 0 }).map(\.element) {
            let entry = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let offset = try XCTUnwrap(entry["offset"] as? Int), length = try XCTUnwrap(entry["length"] as? Int)
            let image = try decoder.decodeGray(stream[offset..<(offset + length)])
            let everyLevel = model.detect(image, upsample: 0)
            detector.detect(image, look: 0, into: &faces)
            XCTAssertEqual(faces.count, 1)
            XCTAssertEqual(faces.map(\.box), everyLevel.map { FaceBox(x: $0.left, y: $0.top, width: $0.width, height: $0.height) },
                           "the same boxes as dlib scanning every level")
            XCTAssertEqual(faces.first?.score ?? 0, everyLevel.first?.score ?? 1, accuracy: 1e-12)
            compared += 1
        }
        XCTAssertEqual(compared, 6)
    }
}
