import Config
import Events
import Foundation
import Landmarks
import Pipeline
import Recordings
import XCTest

/// Decoding only around the tracked faces (`FrameProcessor.decodesOnlyFaces`) changes nothing the
/// pipeline says: on every bundled recording, every line (events, `frame` lines with measures and
/// landmarks) is the same byte for byte as with every frame decoded whole.
final class RegionDecodeTests: XCTestCase {
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }
    private static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    /// Every recording folder under Recordings/ (one level of grouping: real/, attacks/, hd/).
    private static func folders() throws -> [URL] {
        let manager = FileManager.default
        var found: [URL] = []
        for name in try manager.contentsOfDirectory(atPath: recordings.path).sorted() {
            let folder = recordings.appendingPathComponent(name)
            if manager.fileExists(atPath: folder.appendingPathComponent("frames.jsonl").path) {
                found.append(folder)
            } else if let inner = try? manager.contentsOfDirectory(atPath: folder.path) {
                for sub in inner.sorted() where manager.fileExists(atPath: folder.appendingPathComponent("\(sub)/frames.jsonl").path) {
                    found.append(folder.appendingPathComponent(sub))
                }
            }
        }
        return found
    }

    private func lines(_ recording: Recording, regions: Bool) throws -> (lines: [String], partly: Int) {
        var configuration = Configuration()
        configuration.output = OutputOptions(nose: true, frames: true, landmarks: true)
        let processor = try FrameProcessor(configuration: configuration, predictor: Self.predictor.get())
        processor.decodesOnlyFaces = regions
        let encoder = EventEncoder()
        var lines: [String] = []
        let emit: (Event) -> Void = { lines.append(encoder.line($0)) }
        var last = (index: 0, t: 0.0)
        for (n, entry) in recording.frames.enumerated() {
            processor.process(jpeg: try recording.jpeg(n), index: entry.index, t: entry.t, emit: emit)
            last = (entry.index, entry.t)
        }
        processor.finish(index: last.index, t: last.t, emit: emit)
        return (lines, processor.partlyDecodedFrames)
    }

    func testEveryBundledRecordingGivesTheSameLinesDecodedAroundTheFaces() throws {
        let folders = try Self.folders()
        XCTAssertGreaterThanOrEqual(folders.count, 25)
        var partly = 0, frames = 0
        for folder in folders {
            let recording = try Recording(directory: folder.path)
            let whole = try lines(recording, regions: false)
            let regions = try lines(recording, regions: true)
            XCTAssertEqual(whole.partly, 0)
            XCTAssertEqual(regions.lines.count, whole.lines.count, folder.lastPathComponent)
            if let first = regions.lines.indices.first(where: { $0 < whole.lines.count && regions.lines[$0] != whole.lines[$0] }) {
                XCTFail("\(folder.lastPathComponent): line \(first) differs:\n\(regions.lines[first])\n\(whole.lines[first])")
            }
            partly += regions.partly
            frames += recording.frames.count
            if folder.lastPathComponent == "pexels-langer-720p" {
                XCTAssertGreaterThan(regions.partly, recording.frames.count / 2, "most 720p frames decoded in part")
            }
        }
        XCTAssertGreaterThan(partly, frames / 2, "most frames were decoded in part: \(partly) of \(frames)")
    }
}
