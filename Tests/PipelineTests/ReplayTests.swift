import Config
import Events
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings
import XCTest

/// The whole pipeline on recordings written here from a real face photo moved across the frame.
final class ReplayTests: XCTestCase {
    private var folder: URL!
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-replay-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
    }

    /// `count` frames at 30 fps of the astronaut swaying sideways; `corrupt` frames get damaged bytes.
    private func makeRecording(count: Int, corrupt: Set<Int> = []) throws -> Recording {
        var decoder = JPEGDecoder()
        let source = try decoder.decodeGray(Data(contentsOf: Self.fixture("landmarks/hog/astronaut_w120.jpg")))
        let writer = try RecordingWriter(directory: folder.path, info: RecordingInfo(width: source.width, height: source.height,
                                                                                     fps: 30, source: "ReplayTests"))
        for n in 0..<count {
            let dx = Int((30 * sin(Double(n) / 8)).rounded())
            var frame = GrayImage(width: source.width, height: source.height, fill: 96)
            for y in 0..<source.height {
                for x in max(0, dx)..<min(source.width, source.width + dx) { frame[x, y] = source[x - dx, y] }
            }
            var jpeg = try JPEGEncoder.encode(frame, quality: 75)
            if corrupt.contains(n) { jpeg = jpeg.prefix(jpeg.count / 3) }
            try writer.append(jpeg: jpeg, t: Double(n) / 30)
        }
        try writer.finish()
        return try Recording(directory: folder.path)
    }

    /// Replays into memory: the JSON lines as the daemon would write them.
    /// `decodeAhead`: decode on `decoders` other threads (`DecodeAheadSource`, as `replay --speed 0` does).
    private func replay(_ recording: Recording, configuration: Configuration = Configuration(),
                        decodeAhead: Bool = false, decoders: Int = 1) throws -> [String] {
        let processor = try FrameProcessor(configuration: configuration, predictor: Self.predictor.get())
        let sink = LineSink()
        // The decoding threads own the source they are given.
        var source: any FrameSource = decodeAhead
            ? DecodeAheadSource(RecordingSource(recording: recording), conversion: configuration.gray, depth: 3, decoders: decoders)
            : RecordingSource(recording: recording)
        _ = try Replay.run(&source, processor: processor, problems: recording.problems, sink: sink)
        return sink.lines
    }

    func testReplayIsByteIdenticalEveryTime() throws {
        let recording = try makeRecording(count: 60)
        var configuration = Configuration()
        configuration.output = OutputOptions(nose: true, frames: true, landmarks: true)
        let first = try replay(recording, configuration: configuration)
        let second = try replay(recording, configuration: configuration)
        XCTAssertEqual(first, second)
        XCTAssertTrue(first[0].hasPrefix(#"{"type":"face_found","t":0,"frame":0,"face":1,"box":["#), first[0])
        XCTAssertEqual(first.filter { $0.hasPrefix(#"{"type":"frame""#) }.count, 60)
        XCTAssertEqual(first.filter { $0.hasPrefix(#"{"type":"nose""#) }.count, 60)
        XCTAssertEqual(first.last!, #"{"type":"face_lost","t":1.967,"frame":59,"face":1,"reason":"end"}"# + "\n")
    }

    func testAReplayEndsItsTracksWithReasonEnd() throws {
        // The stream ends while the face is tracked: its track ends on the last frame with
        // `face_lost` `"reason":"end"`, the only face_lost of the replay.
        let lines = try replay(try makeRecording(count: 20))
        let lost = lines.filter { $0.hasPrefix(#"{"type":"face_lost""#) }
        XCTAssertEqual(lost, [#"{"type":"face_lost","t":0.633,"frame":19,"face":1,"reason":"end"}"# + "\n"])
        XCTAssertEqual(lines.last, lost.last)
    }

    /// Decoding the next frames on a second thread changes nothing in the output, corrupt and
    /// missing frames included.
    func testDecodingAheadGivesTheSameBytes() throws {
        var configuration = Configuration()
        configuration.output = OutputOptions(nose: true, frames: true, landmarks: true)
        let recording = try makeRecording(count: 60, corrupt: [10, 11, 12, 40])
        let lines = try replay(recording, configuration: configuration)
        for decoders in 1...3 {
            XCTAssertEqual(try replay(recording, configuration: configuration, decodeAhead: true, decoders: decoders), lines)
        }
        let mjpeg = folder.appendingPathComponent("frames.mjpeg")
        try Data(contentsOf: mjpeg).prefix(recording.frames[50].offset + 100).write(to: mjpeg)
        let truncated = try Recording(directory: folder.path)
        let whole = try replay(truncated)
        for decoders in 1...3 {
            XCTAssertEqual(try replay(truncated, decodeAhead: true, decoders: decoders), whole)
        }
    }

    /// A face's window check on a second thread while its fit runs (`tracking.threads` 2) gives the
    /// output of one thread, byte for byte: two real faces, and a real person on camera.
    func testCheckingAlongsideTheFitsGivesTheSameBytes() throws {
        try XCTSkipIf(ProcessInfo.processInfo.activeProcessorCount < 2, "the second thread needs a second processor")
        let bundled = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings")
        for name in ["two-faces", "real/clm-cap12"] {
            let recording = try Recording(directory: bundled.appendingPathComponent(name).path)
            var configuration = Configuration()
            configuration.output = OutputOptions(nose: true, frames: true, landmarks: true)
            configuration.tracking.threads = 1
            let one = try replay(recording, configuration: configuration)
            configuration.tracking.threads = 2
            XCTAssertTrue(try FrameProcessor(configuration: configuration, predictor: Self.predictor.get()).tracker.checksAlongsideFits)
            XCTAssertEqual(try replay(recording, configuration: configuration), one, name)
            XCTAssertGreaterThanOrEqual(one.filter { $0.hasPrefix(#"{"type":"frame""#) && $0.contains(#""landmarks""#) }.count, 80, name)
        }
    }

    func testNoseFollowsTheFace() throws {
        let lines = try replay(try makeRecording(count: 40))
        let xs = try lines.filter { $0.hasPrefix(#"{"type":"nose""#) }.map { line -> Double in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            return object["x"] as! Double
        }
        XCTAssertEqual(xs.count, 40)
        // The face moves by 30·sin(n/8) px on a 640 px frame.
        for (n, x) in xs.enumerated() {
            XCTAssertEqual(x - xs[0], 30 * sin(Double(n) / 8) / 640, accuracy: 0.006, "frame \(n)")
        }
    }

    func testCorruptFramesAreSkippedWithRateLimitedErrorsAndTrackingGoesOn() throws {
        let lines = try replay(try makeRecording(count: 60, corrupt: [10, 11, 12, 40]))
        let errors = lines.filter { $0.hasPrefix(#"{"type":"error""#) }
        XCTAssertEqual(errors.count, 2, "frame 10 at once, frames 11-12 folded into the report of frame 40: \(errors)")
        XCTAssertTrue(errors[0].contains(#""frame":10"#) && errors[0].contains(#""code":"bad_frame""#), errors[0])
        XCTAssertTrue(errors[1].contains("3 bad frames since the last report"), errors[1])
        XCTAssertEqual(lines.filter { $0.hasPrefix(#"{"type":"nose""#) }.count, 56)
        XCTAssertEqual(lines.filter { $0.hasPrefix(#"{"type":"face_found""#) }.count, 1, "the track survives the gap")
    }

    func testTruncatedRecordingReportsAndPlaysTheRest() throws {
        let recording = try makeRecording(count: 30)
        let mjpeg = folder.appendingPathComponent("frames.mjpeg")
        let keep = recording.frames[20].offset + 100
        try Data(contentsOf: mjpeg).prefix(keep).write(to: mjpeg)
        let lines = try replay(try Recording(directory: folder.path))
        XCTAssertTrue(lines[0].hasPrefix(#"{"type":"error","t":0,"frame":0,"message":"#) && lines[0].contains(#""code":"recording""#), lines[0])
        XCTAssertEqual(lines.filter { $0.hasPrefix(#"{"type":"nose""#) }.count, 20)
        let bad = lines.filter { $0.contains(#""code":"bad_frame""#) }
        XCTAssertEqual(bad.count, 2, "frame 20 at once, frames 21-29 at the end of the stream: \(bad)")
        XCTAssertTrue(bad.last?.contains("9 bad frames since the last report (end of stream)") == true, "\(bad)")
    }

    func testAFailingSinkStopsTheReplayWithItsError() throws {
        let recording = try makeRecording(count: 10)
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        let sink = FailingSink(after: 3)
        var source = RecordingSource(recording: recording)
        XCTAssertThrowsError(try Replay.run(&source, processor: processor, sink: sink)) { error in
            XCTAssertEqual(error as? EventsError, .writeFailed(descriptor: 1, errno: EPIPE))
        }
        XCTAssertEqual(sink.written, 3)
        XCTAssertLessThan(processor.processedFrames, 10, "stops at once, not at the end of the recording")
    }
}

/// Keeps the encoded lines.
private final class LineSink: EventSink {
    var lines: [String] = []
    private let encoder = EventEncoder()

    func write(_ event: Event) throws {
        lines.append(encoder.line(event))
    }
}

/// Accepts `after` events, then fails like a closed pipe.
private final class FailingSink: EventSink {
    let after: Int
    var written = 0

    init(after: Int) { self.after = after }

    func write(_ event: Event) throws {
        guard written < after else { throw EventsError.writeFailed(descriptor: 1, errno: EPIPE) }
        written += 1
    }
}
