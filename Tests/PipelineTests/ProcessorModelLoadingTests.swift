import Config
import Foundation
import Pipeline
import Recordings
import XCTest

/// `FrameProcessor(configuration:)` loads the landmark model on another thread while it builds
/// the face detector: both come out usable, and when both files are broken the landmark model's
/// error is the one thrown, as when they loaded one after the other.
final class ProcessorModelLoadingTests: XCTestCase {
    private let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    func testBothModelsLoadAndTrackAFace() throws {
        let processor = try FrameProcessor(configuration: Configuration())
        let recording = try Recording(directory: bundled.appendingPathComponent("blinks-slow-move").path)
        for n in 0..<3 {
            processor.process(jpeg: try recording.jpeg(n), index: n, t: recording.frames[n].t) { _ in }
        }
        XCTAssertEqual(processor.tracker.detectorKind, .hog)
        XCTAssertEqual(processor.tracker.faces.count, 1)
        XCTAssertEqual(processor.tracker.faces.first?.shape.count, 68)
    }

    func testTheLandmarkModelsErrorComesFirst() throws {
        var configuration = Configuration()
        let landmarks = configuration.landmarkModel
        configuration.landmarkModel = "/nonexistent/landmarks.dat"
        configuration.faceDetectorModel = "/nonexistent/detector.dat"
        XCTAssertThrowsError(try FrameProcessor(configuration: configuration)) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/landmarks.dat: "), "\(error)")
        }
        configuration.landmarkModel = landmarks
        XCTAssertThrowsError(try FrameProcessor(configuration: configuration)) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/detector.dat: "), "\(error)")
        }
    }
}
