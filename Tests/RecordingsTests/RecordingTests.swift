import Foundation
import Imaging
import Recordings
import XCTest

final class RecordingTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-rec-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Three small real JPEG frames of different content.
    private func frames() throws -> [Data] {
        try (0..<3).map { n in
            var image = GrayImage(width: 32, height: 24)
            for y in 0..<24 { for x in 0..<32 { image[x, y] = UInt8((x * 8 + y * n * 3) % 256) } }
            return try JPEGEncoder.encode(image, quality: 80)
        }
    }

    private func write(_ jpegs: [Data], times: [Double] = [0, 0.033, 0.1], truth: Truth? = nil) throws {
        let writer = try RecordingWriter(directory: folder.path,
                                         info: RecordingInfo(width: 32, height: 24, fps: 30, source: "test"))
        for (jpeg, t) in zip(jpegs, times) { try writer.append(jpeg: jpeg, t: t) }
        try writer.finish(truth: truth)
    }

    private func file(_ name: String) -> URL { folder.appendingPathComponent(name) }

    func testWrittenRecordingReadsBackFrameForFrame() throws {
        let jpegs = try frames()
        let truth = Truth(faces: 1, events: [.init(type: "blink", start: 0.03, end: 0.09),
                                              .init(type: "wink", start: 0.05, end: 0.06, eye: "left")], notes: "test")
        try write(jpegs, truth: truth)
        let recording = try Recording(directory: folder.path)
        XCTAssertEqual(recording.info.frameCount, 3)
        XCTAssertEqual(recording.info.pixelFormat, "MJPG")
        XCTAssertEqual(recording.truth, truth)
        XCTAssertTrue(recording.problems.isEmpty)
        var source = RecordingSource(recording: recording)
        var seen: [(Int, Double, Data)] = []
        while let frame = try source.nextFrame() {
            guard case .jpeg(let data) = frame.payload else { return XCTFail("expected JPEG frames") }
            seen.append((frame.index, frame.t, data))
        }
        XCTAssertEqual(seen.map(\.0), [0, 1, 2])
        XCTAssertEqual(seen.map(\.1), [0, 0.033, 0.1])
        XCTAssertEqual(seen.map(\.2), jpegs)
        // The stream is a plain concatenation of JPEGs, as ffmpeg's mjpeg demuxer reads it.
        XCTAssertEqual(try Data(contentsOf: file("frames.mjpeg")), jpegs.reduce(Data(), +))
    }

    /// The writer's index lines are the spec's, with `t` to the microsecond, and the buffer
    /// they are written into keeps its storage from line to line.
    func testIndexLinesAreTheSpecsWithMicrosecondTimes() throws {
        var line: [UInt8] = []
        FrameEntry(index: 0, t: 0, offset: 0, length: 23817).appendLine(to: &line)
        FrameEntry(index: 2, t: 2.0 / 30, offset: 33327, length: 16573).appendLine(to: &line)
        FrameEntry(index: 1234, t: 3723.5, offset: 9_876_543_210, length: 1).appendLine(to: &line)
        FrameEntry(index: 7, t: 0.0000126, offset: 5, length: 6).appendLine(to: &line)
        XCTAssertEqual(String(decoding: line, as: UTF8.self), [
            #"{"index": 0, "t": 0.000000, "offset": 0, "length": 23817}"#,
            #"{"index": 2, "t": 0.066667, "offset": 33327, "length": 16573}"#,
            #"{"index": 1234, "t": 3723.500000, "offset": 9876543210, "length": 1}"#,
            #"{"index": 7, "t": 0.000013, "offset": 5, "length": 6}"#,
        ].map { $0 + "\n" }.joined())
        let storage = line.withUnsafeBufferPointer { $0.baseAddress }
        line.removeAll(keepingCapacity: true)
        FrameEntry(index: 3, t: 0.1, offset: 1, length: 2).appendLine(to: &line)
        XCTAssertEqual(line.withUnsafeBufferPointer { $0.baseAddress }, storage)

        try write(try frames(), times: [0, 1.0 / 30, 0.1])
        let times = try String(contentsOf: file("frames.jsonl"), encoding: .utf8)
            .split(separator: "\n").map { String($0.split(separator: ",")[1]) }
        XCTAssertEqual(times, [#" "t": 0.000000"#, #" "t": 0.033333"#, #" "t": 0.100000"#])
    }

    func testSpecExampleLineFormatIsRead() throws {
        let jpeg = try frames()[0]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try jpeg.write(to: file("frames.mjpeg"))
        try Data("{\"index\": 0, \"t\": 0.0, \"offset\": 0, \"length\": \(jpeg.count)}\n".utf8).write(to: file("frames.jsonl"))
        try Data("""
            {"format": "facewatch-recording", "version": 1, "width": 640, "height": 480, "fps": 30,
             "pixel_format": "MJPG", "frame_count": 1, "source": "free text", "created": "2026-11-21T12:00:00Z"}
            """.utf8).write(to: file("recording.json"))
        let recording = try Recording(directory: folder.path)
        XCTAssertEqual(recording.frames, [FrameEntry(index: 0, t: 0, offset: 0, length: jpeg.count)])
        XCTAssertNil(recording.truth)
    }

    func testMissingFilesAreNamed() throws {
        XCTAssertThrowsError(try Recording(directory: folder.path)) { error in
            XCTAssertTrue("\(error)".contains("recording.json"), "\(error)")
        }
        try write(try frames())
        try FileManager.default.removeItem(at: file("frames.mjpeg"))
        XCTAssertThrowsError(try Recording(directory: folder.path)) { error in
            XCTAssertEqual((error as? RecordingError)?.path, file("frames.mjpeg").path)
        }
    }

    func testABadLineIsReportedWithItsNumber() throws {
        try write(try frames())
        var lines = try String(contentsOf: file("frames.jsonl"), encoding: .utf8).split(separator: "\n").map(String.init)
        lines[1] = "{\"index\": 1, \"t\": \"soon\"}"
        try (lines.joined(separator: "\n") + "\n").write(to: file("frames.jsonl"), atomically: true, encoding: .utf8)
        XCTAssertThrowsError(try Recording(directory: folder.path)) { error in
            let error = error as? RecordingError
            XCTAssertEqual(error?.line, 2)
            XCTAssertEqual(error?.path, file("frames.jsonl").path)
        }
    }

    func testIndicesMustBeConsecutiveAndTimeMustNotGoBack() throws {
        for (times, indices, line) in [([0, 0.1, 0.05], [0, 1, 2], 3), ([0, 0.1, 0.2], [0, 2, 3], 2)] {
            try write(try frames(), times: [0, 0.033, 0.1])
            let entries = try Recording(directory: folder.path).frames
            let text = zip(entries, zip(times, indices)).map { entry, change in
                "{\"index\": \(change.1), \"t\": \(change.0), \"offset\": \(entry.offset), \"length\": \(entry.length)}"
            }.joined(separator: "\n") + "\n"
            try text.write(to: file("frames.jsonl"), atomically: true, encoding: .utf8)
            XCTAssertThrowsError(try Recording(directory: folder.path)) { error in
                XCTAssertEqual((error as? RecordingError)?.line, line, "\(error)")
            }
            try FileManager.default.removeItem(at: folder)
        }
    }

    func testATruncatedStreamPlaysWhatItHasAndFlagsTheRest() throws {
        let jpegs = try frames()
        try write(jpegs)
        let whole = try Data(contentsOf: file("frames.mjpeg"))
        try whole.prefix(jpegs[0].count + jpegs[1].count / 2).write(to: file("frames.mjpeg"))
        let recording = try Recording(directory: folder.path)
        XCTAssertEqual(recording.problems.count, 1)
        XCTAssertTrue(recording.problems[0].contains("truncated"), recording.problems[0])
        var source = RecordingSource(recording: recording)
        XCTAssertNotNil(try source.nextFrame())
        XCTAssertThrowsError(try source.nextFrame()) { error in
            XCTAssertEqual((error as? FrameError)?.index, 1)
        }
        XCTAssertThrowsError(try source.nextFrame())
        XCTAssertNil(try source.nextFrame())
    }

    func testARecordingCutOffMidLinePlaysItsCompleteFrames() throws {
        try write(try frames())
        var index = try Data(contentsOf: file("frames.jsonl"))
        index.removeLast(10)  // the last line is cut and has no newline
        try index.write(to: file("frames.jsonl"))
        let recording = try Recording(directory: folder.path)
        XCTAssertEqual(recording.frames.count, 2)
        XCTAssertEqual(recording.problems.count, 2, "\(recording.problems)")  // the cut line and the frame count
    }

    func testWriterRefusesToOverwriteAndBackwardsTime() throws {
        try write(try frames())
        XCTAssertThrowsError(try RecordingWriter(directory: folder.path, info: RecordingInfo(width: 1, height: 1, fps: 1, source: "x")))
        let other = folder.appendingPathComponent("second")
        let writer = try RecordingWriter(directory: other.path, info: RecordingInfo(width: 1, height: 1, fps: 1, source: "x"))
        try writer.append(jpeg: try frames()[0], t: 1)
        XCTAssertThrowsError(try writer.append(jpeg: try frames()[0], t: 0.5))
        try writer.finish()
    }
}
