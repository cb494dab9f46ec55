import Capture
import Foundation
import Imaging
import Recordings
import XCTest

final class RecorderTests: SceneTestCase {
    private var output: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        output = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-record-\(UUID().uuidString)")
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: output)
    }

    private func record(_ camera: Camera, seconds: Double) throws -> CameraRecorder.Summary {
        try CameraRecorder.record(camera, seconds: seconds, to: output.path,
                                  reconnector: Reconnector(clock: clock), log: { _ in })
    }

    /// MJPEG frames go into the recording byte for byte, with the camera's times.
    func testRecordingAnMJPGCameraKeepsItsJPEGBytes() throws {
        let summary = try record(camera(on: emulated()), seconds: 0.5)
        let expected = Self.times.filter { $0 - Self.times[0] < 0.5 }.count
        XCTAssertEqual(summary.frames, expected)
        XCTAssertEqual(summary.skipped, 0)
        XCTAssertEqual(summary.reconnects, 0)

        let recorded = try Recording(directory: output.path)
        XCTAssertEqual(recorded.info.pixelFormat, "MJPG")
        XCTAssertEqual(recorded.info.width, 640)
        XCTAssertEqual(recorded.info.height, 480)
        XCTAssertEqual(recorded.info.fps, 30)
        XCTAssertEqual(recorded.info.frameCount, expected)
        XCTAssertTrue(recorded.problems.isEmpty, "\(recorded.problems)")
        for number in 0..<expected {
            XCTAssertEqual(try recorded.jpeg(number), try recording.jpeg(number), "frame \(number)")
            XCTAssertEqual(recorded.frames[number].t, Self.times[number] - Self.times[0], accuracy: 1e-6)
        }
    }

    /// GREY frames are encoded once, at quality 75: they decode to the scene's luma within JPEG loss.
    func testRecordingAGREYCameraEncodesItsFramesOnce() throws {
        let summary = try record(camera(on: emulated(.init(formats: [.grey]))), seconds: 0.2)
        let recorded = try Recording(directory: output.path)
        XCTAssertEqual(recorded.info.pixelFormat, "GREY")
        XCTAssertEqual(recorded.frames.count, summary.frames)
        XCTAssertEqual(summary.frames, 6)
        var decoder = JPEGDecoder()
        for number in 0..<summary.frames {
            let stored = try decoder.decodeGray(recorded.jpeg(number))
            let scene = try decoder.decodeGray(recording.jpeg(number))
            let difference = zip(stored.pixels, scene.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
            XCTAssertLessThan(Double(difference) / Double(scene.pixels.count), 2.5, "frame \(number)")
            XCTAssertNotEqual(try recorded.jpeg(number), try recording.jpeg(number), "re-encoded, not copied")
        }
    }

    /// A camera unplugged mid-recording is reconnected; bad frames are skipped; the recording
    /// stays readable, its times going forward across the gap.
    func testRecordingCarriesOnAcrossAnUnplugAndBadFrames() throws {
        let faults: [EmulatedFault] = [.truncated(frame: 3, keep: 50), .unplug(at: 0.4, back: 0.5)]
        var log: [String] = []
        let summary = try CameraRecorder.record(camera(on: emulated(.init(faults: faults))), seconds: 1.5, to: output.path,
                                                reconnector: Reconnector(clock: clock), log: { log.append($0) })
        XCTAssertEqual(summary.reconnects, 1)
        XCTAssertEqual(summary.skipped, 1)
        XCTAssertTrue(log.contains("emulated-test disconnected; reconnecting"), "\(log)")
        let recorded = try Recording(directory: output.path)
        XCTAssertEqual(recorded.frames.count, summary.frames)
        let gap = zip(recorded.frames.dropFirst(), recorded.frames).map { $0.t - $1.t }.max() ?? 0
        XCTAssertGreaterThan(gap, 0.5, "the frames after the reconnect come after the time away")
        XCTAssertLessThan(recorded.frames.last?.t ?? 0, 1.5)
    }
}
