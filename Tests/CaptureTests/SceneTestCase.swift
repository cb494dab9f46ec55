import Capture
import Foundation
import Imaging
import Recordings
import XCTest

/// Test cases that run the real `Camera` against an `EmulatedCamera` playing a small real
/// recording, on a virtual clock.
///
/// The recording is written once per test class with RecordingWriter: the 640×480 face photo
/// from Tests/Fixtures/bench, shifted 3 px further right in every frame (so every frame's bytes
/// differ), JPEG quality 75, about 30 fps with jittered times starting at 0.25 s (so "relative to
/// the first frame" matters).
class SceneTestCase: XCTestCase {
    static let frameCount = 24
    /// The frame times written to frames.jsonl.
    static let times: [Double] = (0..<frameCount).map { 0.25 + Double($0) / 30 + [0, 0.004, -0.003][$0 % 3] }

    /// Where each test class writes the scene in its `setUp` and removes it in its `tearDown`.
    private static let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-capture-\(UUID().uuidString)")
    private(set) var recording: Recording!
    var clock: ManualClock!

    override class func setUp() {
        super.setUp()
        try? writeScene(to: folder.path)
    }

    override class func tearDown() {
        try? FileManager.default.removeItem(at: folder)
        super.tearDown()
    }

    override func setUpWithError() throws {
        recording = try Recording(directory: Self.folder.path)
        clock = ManualClock()
    }

    static var fixtures: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
    }

    private static func writeScene(to directory: String) throws {
        var decoder = JPEGDecoder()
        let photo = try decoder.decodeGray(Data(contentsOf: fixtures.appendingPathComponent("bench/face-640x480.jpg")))
        let writer = try RecordingWriter(directory: directory,
                                         info: RecordingInfo(width: photo.width, height: photo.height, fps: 30, source: "capture tests"))
        for (number, t) in times.enumerated() {
            var frame = photo
            for y in 0..<photo.height {
                for x in 0..<photo.width { frame[x, y] = photo[max(x - 3 * number, 0), y] }
            }
            try writer.append(jpeg: JPEGEncoder.encode(frame, quality: 75), t: t)
        }
        try writer.finish()
    }

    /// An emulated camera on the test clock playing the scene.
    func emulated(_ options: EmulatedCamera.Options = EmulatedCamera.Options()) -> EmulatedCamera {
        EmulatedCamera(recording: recording, options: options, clock: clock)
    }

    /// The real capture code over `camera`'s nodes.
    func camera(on camera: EmulatedCamera, _ settings: CameraSettings = CameraSettings(device: "emulated-test")) throws -> Camera {
        try Camera(settings: settings, clock: clock, opener: { _ in try camera.open() })
    }

    /// The scene frame a camera time belongs to (times are relative to the first frame).
    func sceneFrame(at t: Double, speed: Double = 1) -> Int? {
        Self.times.firstIndex { abs(($0 - Self.times[0]) / speed - t) < 1e-6 }
    }

    /// The frame's JPEG bytes; fails the test for a gray frame.
    func jpeg(_ frame: Frame?, file: StaticString = #filePath, line: UInt = #line) throws -> Data {
        guard case .jpeg(let data) = try XCTUnwrap(frame, file: file, line: line).payload else {
            XCTFail("expected a JPEG frame", file: file, line: line)
            return Data()
        }
        return data
    }

    /// The frame's gray image; fails the test for a JPEG frame.
    func gray(_ frame: Frame?, file: StaticString = #filePath, line: UInt = #line) throws -> GrayImage {
        guard case .gray(let image) = try XCTUnwrap(frame, file: file, line: line).payload else {
            XCTFail("expected a gray frame", file: file, line: line)
            return GrayImage(width: 0, height: 0)
        }
        return image
    }
}
