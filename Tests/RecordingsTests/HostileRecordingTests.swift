import Foundation
import Imaging
import Recordings
import XCTest

/// Recording folders with values that overflowed the readers (reliability findings D1, D6), a
/// truth.json whose events end before they start, and recordings cut short while being written
/// (D11): every prefix of a recording replays.
final class HostileRecordingTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-hostile-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    /// Starts a recording of `count` frames (32×24 JPEGs); returns the writer, not finished.
    private func record(_ count: Int) throws -> RecordingWriter {
        var image = GrayImage(width: 32, height: 24)
        for y in 0..<24 { for x in 0..<32 { image[x, y] = UInt8((x * 8 + y) % 256) } }
        let jpeg = try JPEGEncoder.encode(image, quality: 80)
        let writer = try RecordingWriter(directory: folder.path, info: RecordingInfo(width: 32, height: 24, fps: 30, source: "test"))
        for n in 0..<count { try writer.append(jpeg: jpeg, t: Double(n) / 30) }
        return writer
    }

    /// Rewrites one key of every line of `name` (a JSON object per line, or one object).
    private func edit(_ name: String, line: Int? = nil, _ change: (inout [String: Any]) -> Void) throws {
        let text = try String(contentsOf: file(name), encoding: .utf8)
        let lines = name.hasSuffix(".jsonl") ? text.split(separator: "\n").map(String.init) : [text]
        let edited = try lines.enumerated().map { number, text -> String in
            var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            if line == nil || line == number { change(&object) }
            return String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        }
        try Data((edited.joined(separator: "\n") + "\n").utf8).write(to: file(name))
    }

    private func assertRefused(_ name: String, mentioning words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try Recording(directory: folder.path), file: file, line: line) { error in
            let error = error as? RecordingError
            XCTAssertEqual(error?.path, self.file(name).path, file: file, line: line)
            XCTAssertTrue(error?.problem.contains(words) == true, "\(String(describing: error))", file: file, line: line)
        }
    }

    func testOffsetPlusLengthNearIntMaxIsALineError() throws {
        for (offset, length) in [(Int.max, 1), (9_223_372_036_854_775_000, 1000), (100, Int.max)] {
            try? FileManager.default.removeItem(at: folder)
            try record(3).finish()
            try edit("frames.jsonl", line: 1) { $0["offset"] = offset; $0["length"] = length }
            assertRefused("frames.jsonl", mentioning: "overflows")
        }
    }

    func testImpossibleSizesAndRatesAreRefused() throws {
        for (key, value) in [("width", 1_000_000_000_000_000), ("height", 1 << 62), ("fps", 1e308), ("fps", 5000)] as [(String, Any)] {
            try? FileManager.default.removeItem(at: folder)
            try record(3).finish()
            try edit("recording.json") { $0[key] = value }
            assertRefused("recording.json", mentioning: "at most")
        }
    }

    func testATruthEventEndingBeforeItStartsIsNamed() throws {
        try record(3).finish(truth: Truth(faces: 1, events: [.init(type: "blink", start: 1, end: 2),
                                                              .init(type: "smile", start: 3, end: 2.5)]))
        assertRefused("truth.json", mentioning: "event 1 (smile): end 2.5 is before start 3.0")
    }

    func testARecordingStoppedWithoutFinishingReplaysItsFrames() throws {
        let writer = try record(5)
        // A SIGKILL, a crash or a full disk now: recording.json is there from the start.
        let partial = try Recording(directory: folder.path)
        XCTAssertEqual(partial.frames.count, 5)
        XCTAssertEqual(try partial.jpeg(4).count, partial.frames[4].length)
        XCTAssertTrue(partial.problems.contains { $0.contains("frame_count is 0") }, "\(partial.problems)")
        try writer.finish()
        try writer.finish()  // a second finish (after a failure was handled) does nothing
        let whole = try Recording(directory: folder.path)
        XCTAssertEqual(whole.info.frameCount, 5)
        XCTAssertEqual(whole.problems, [])
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        XCTAssertEqual(leftovers, ["frames.jsonl", "frames.mjpeg", "recording.json"], "no temporary files left")
    }

    /// The in-memory reader the fuzz targets use is the folder reader: same frames, same truth,
    /// same problems, and errors that name the file.
    func testTheFilesBytesReadAsTheFolder() throws {
        try record(4).finish(truth: Truth(faces: 1, events: [.init(type: "blink", start: 0, end: 0.1)]))
        let bytes = { (name: String) in try Data(contentsOf: self.file(name)) }
        let folderRecording = try Recording(directory: folder.path)
        let cut = try bytes("frames.mjpeg").dropLast(10)
        let memory = try Recording(directory: folder.path, recordingJSON: bytes("recording.json"), index: bytes("frames.jsonl"),
                                   frames: Data(cut), truth: bytes("truth.json"))
        XCTAssertEqual(memory.frames, folderRecording.frames)
        XCTAssertEqual(memory.truth, folderRecording.truth)
        XCTAssertEqual(try memory.jpeg(2), try folderRecording.jpeg(2))
        XCTAssertEqual(memory.problems, ["\(file("frames.mjpeg").path): truncated: 1 frame(s) lie past its end (\(cut.count) bytes)"])
        XCTAssertThrowsError(try memory.jpeg(3))

        let badTruth = Data(#"{"faces": 1, "events": [{"type": "smile", "start": 3, "end": 2.5}]}"#.utf8)
        XCTAssertThrowsError(try Recording(directory: folder.path, recordingJSON: bytes("recording.json"),
                                           index: bytes("frames.jsonl"), frames: bytes("frames.mjpeg"), truth: badTruth)) { error in
            XCTAssertEqual((error as? RecordingError)?.path, self.file("truth.json").path)
        }
        XCTAssertThrowsError(try Recording(directory: folder.path, recordingJSON: Data("{}".utf8),
                                           index: bytes("frames.jsonl"), frames: bytes("frames.mjpeg"), truth: nil)) { error in
            XCTAssertEqual((error as? RecordingError)?.path, self.file("recording.json").path)
        }
    }
}
