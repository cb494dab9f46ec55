import Capture
import Foundation
import XCTest

final class DeviceTests: SceneTestCase {
    func testReportListsFormatsSizesAndRates() throws {
        let device = try emulated(.init(formats: [.mjpeg, .yuyv])).open()
        let report = try DeviceReport(device: device)
        XCTAssertEqual(report.formats.map(\.description.fourcc), [.mjpeg, .yuyv])
        XCTAssertEqual(report.formats[0].modes.map(\.size), [.discrete(width: 640, height: 480)])
        XCTAssertEqual(report.formats[0].modes.map(\.intervals), [[.discrete(FrameInterval(numerator: 1, denominator: 30))]])
        XCTAssertEqual(report.lines.dropFirst(), [
            "  capabilities: video-capture, streaming",
            "  MJPG (Motion-JPEG, compressed)",
            "    640x480: 30 fps",
            "  YUYV (YUYV 4:2:2)",
            "    640x480: 30 fps",
            "  automatic choice for 640x480: MJPG at 640x480 (the format offering the nearest size, ties ranked MJPG, JPEG, YUYV, GREY; --format or camera.format picks another)",
        ])
        XCTAssertTrue(report.lines[0].hasPrefix("emulated:"), report.lines[0])
    }

    func testReportOfAMetadataNode() throws {
        let device = try emulated(.init(capabilities: DeviceCapabilities.metaCapture | DeviceCapabilities.streaming)).open()
        let report = try DeviceReport(device: device)
        XCTAssertEqual(report.formats, [])
        XCTAssertEqual(report.lines.dropFirst(), ["  capabilities: metadata-capture, streaming",
                                                  "  not a streaming video capture device"])
    }

    func testNodesAreListedInNumericOrder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-dev-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["video10", "video2", "video0", "videox", "media0", "video"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil)
        }
        XCTAssertEqual(VideoDevices.nodes(in: folder.path).map { ($0 as NSString).lastPathComponent }, ["video0", "video2", "video10"])
    }

    /// The real V4L2 path through libv4l2: a missing node and a node that is not a video device.
    func testRealDeviceErrorsNameTheNode() throws {
        XCTAssertThrowsError(try Camera(settings: CameraSettings(device: "/dev/video-missing"))) { error in
            XCTAssertEqual("\(error)", "/dev/video-missing: open: No such file or directory")
        }
        XCTAssertThrowsError(try Camera(settings: CameraSettings(device: "/dev/null"))) { error in
            XCTAssertEqual("\(error)", "/dev/null: open: Inappropriate ioctl for device", "libv4l2 refuses a node that is not a V4L2 device")
        }
    }

    func testEmulatedDeviceNamesOpenRecordings() throws {
        let device = try VideoDevices.open("emulated:\(recording.directory)", clock: clock)
        XCTAssertEqual(device.path, "emulated:\(recording.directory)")
        XCTAssertThrowsError(try VideoDevices.open("emulated:/nonexistent", clock: clock)) { error in
            XCTAssertTrue("\(error)".hasPrefix("/nonexistent/recording.json: missing"), "\(error)")
        }
    }
}
