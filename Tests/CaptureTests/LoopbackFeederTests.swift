import Capture
import Foundation
import Imaging
import XCTest

/// `LoopbackFeeder` against a stand-in output on the virtual clock: what it writes, when, and the
/// timestamps it gives each frame.
final class LoopbackFeederTests: SceneTestCase {
    /// An output that keeps every frame written, with the clock's time and the given timestamp.
    private final class KeptOutput: VideoOutput {
        let layout: PixelLayout
        let clock: ManualClock
        var frames: [(bytes: Data, at: Double, timestamp: Double?)] = []
        var closed = false

        init(_ layout: PixelLayout, clock: ManualClock) {
            self.layout = layout
            self.clock = clock
        }

        func write(_ frame: UnsafeRawBufferPointer, timestamp: Double?) throws {
            frames.append((Data(frame), clock.now(), timestamp))
        }

        func close() { closed = true }
    }

    private func output(_ fourcc: FourCC, width: Int = 640) -> KeptOutput {
        let bytesPerLine = fourcc == .yuyv ? 2 * width : fourcc == .grey ? width : 0
        return KeptOutput(PixelLayout(fourcc: fourcc, width: width, height: 480, bytesPerLine: bytesPerLine,
                                      sizeImage: bytesPerLine * 480),
                          clock: clock)
    }

    /// MJPG at a quarter speed: the recorded JPEGs byte for byte, written four times slower than
    /// recorded, each stamped with its recorded time from the start of playing.
    func testSlowPlayKeepsTheRecordedTimestamps() throws {
        let kept = output(.mjpeg)
        let feeder = try LoopbackFeeder(recording: recording, output: kept, name: "kept", format: .mjpeg, clock: clock)
        let origin = clock.now()
        XCTAssertEqual(try feeder.play(loops: 1, speed: 0.25), Self.frameCount)
        XCTAssertEqual(kept.frames.count, Self.frameCount)
        for (number, frame) in kept.frames.enumerated() {
            let recorded = recording.frames[number].t - recording.frames[0].t  // as stored in frames.jsonl
            XCTAssertEqual(frame.bytes, try recording.jpeg(number), "frame \(number)")
            XCTAssertEqual(frame.at, origin + recorded / 0.25, accuracy: 1e-9, "frame \(number) written")
            XCTAssertEqual(try XCTUnwrap(frame.timestamp), origin + recorded, accuracy: 1e-9, "frame \(number) stamp")
        }
    }

    /// The lead-in repeats the first frame unstamped (the driver stamps it) until told to start;
    /// the played frames are stamped from then on, after every lead-in frame, and looping goes on
    /// one recording length (plus a frame) later.
    func testLeadInThenLoopsStampAfterTheLeadIn() throws {
        let kept = output(.grey)
        let feeder = try LoopbackFeeder(recording: recording, output: kept, name: "kept", format: .grey, clock: clock)
        var polls = 0
        let written = try feeder.play(loops: 2, leadIn: 10, speed: 0.5, start: { polls += 1; return polls > 3 })
        let leadIn = kept.frames.prefix { $0.timestamp == nil }
        XCTAssertEqual(leadIn.count, 3)
        XCTAssertEqual(written, 3 + 2 * Self.frameCount)
        let played = kept.frames.dropFirst(3)
        XCTAssertTrue(played.allSatisfy { $0.timestamp != nil })
        let start = try XCTUnwrap(played.first?.timestamp)
        XCTAssertGreaterThanOrEqual(start, try XCTUnwrap(leadIn.last?.at))
        let cycle = recording.frames[Self.frameCount - 1].t - recording.frames[0].t + 1.0 / 30
        let second = try XCTUnwrap(played.dropFirst(Self.frameCount).first?.timestamp)
        XCTAssertEqual(second - start, cycle, accuracy: 1e-9)
        // GREY frames are the decoded luma, one byte a pixel.
        var decoder = JPEGDecoder()
        let gray = try decoder.decodeGray(recording.jpeg(0))
        XCTAssertEqual(kept.frames[0].bytes.count, 640 * 480)
        XCTAssertEqual(kept.frames[0].bytes[1000], gray[1000 % 640, 1000 / 640])
    }

    /// An output that granted another size is refused and closed.
    func testAnOutputOfAnotherSizeIsRefused() {
        let kept = output(.yuyv, width: 320)
        XCTAssertThrowsError(try LoopbackFeeder(recording: recording, output: kept, name: "kept", format: .yuyv, clock: clock)) {
            XCTAssertTrue("\($0)".contains("granted YUYV 320x480"), "\($0)")
        }
        XCTAssertTrue(kept.closed)
    }
}
