import Config
import Events
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

    /// `frame` events (`--frames --landmarks`) carry two faces in arrays the processor reuses in
    /// turn, and their landmarks in storage of their own, never a track's (which the next fit
    /// writes into: an event sharing it would make that fit copy the points).
    func testFrameEventsReuseTheirArraysAndNeverShareATracksPoints() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let recording = try Recording(directory: root.appendingPathComponent("Recordings/two-faces").path)
        var configuration = Configuration()
        configuration.output = OutputOptions(frames: true, landmarks: true)
        let processor = try FrameProcessor(configuration: configuration, predictor: Self.predictor.get())
        var source = RecordingSource(recording: recording)
        var faceArrays = Set<Int>(), pointArrays = Set<Int>(), framesWithTwoFaces = 0
        func address<T>(_ array: [T]) -> Int { array.withUnsafeBufferPointer { Int(bitPattern: $0.baseAddress) } }
        while framesWithTwoFaces < 20 {
            var faces: [FrameFace]?
            guard try processor.processNext(from: &source, emit: { event in
                if case .frame(let carried) = event.payload { faces = carried }
            }) != nil else { break }
            let carried = try XCTUnwrap(faces, "every frame has a frame event")
            let tracks = Set(processor.tracker.faces.map { address($0.shape.points) })
            for face in carried {
                let points = try XCTUnwrap(face.landmarks)
                XCTAssertEqual(points.count, 68)
                XCTAssertFalse(tracks.contains(address(points)), "an event shares a track's points")
            }
            XCTAssertEqual(carried.map(\.landmarks), processor.tracker.faces.map { $0.shape.points })
            guard carried.count == 2 else { continue }
            framesWithTwoFaces += 1
            faceArrays.insert(address(carried))
            for face in carried { pointArrays.insert(address(face.landmarks!)) }
            faces = nil
        }
        XCTAssertEqual(framesWithTwoFaces, 20, "both faces are tracked")
        XCTAssertLessThanOrEqual(faceArrays.count, 4, "frame events got new face arrays")
        XCTAssertLessThanOrEqual(pointArrays.count, 8, "frame events got new landmark arrays")
    }
}
