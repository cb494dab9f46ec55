import Config
import Foundation
import Landmarks
import Pipeline
import Recordings
import XCTest

/// What the processor keeps between frames.
final class FrameProcessorTests: XCTestCase {
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }

    /// A tracked face's fit writes its points into the storage the track already has. The frame's
    /// observations share that storage; had they still held it when the next fit ran, every fit
    /// would copy the 68 points into a new buffer (an allocation per face and frame).
    func testFitsWriteIntoTheTracksLandmarkStorage() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let recording = try Recording(directory: root.appendingPathComponent("Recordings/blinks-slow-move").path)
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        var source = RecordingSource(recording: recording)
        var storage: [Int] = []
        while storage.count < 12, try processor.processNext(from: &source, emit: { _ in }) != nil {
            XCTAssertEqual(processor.observations.count, processor.tracker.faces.count)
            guard let face = processor.tracker.faces.first else { continue }
            storage.append(face.shape.points.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) })
        }
        XCTAssertEqual(storage.count, 12, "the face is tracked")
        XCTAssertEqual(Set(storage).count, 1, "the points moved to new storage: \(storage)")
    }
}
