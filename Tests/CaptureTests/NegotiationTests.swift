import Capture
import Foundation
import Imaging
import Recordings
import XCTest

final class NegotiationTests: SceneTestCase {
    func testMJPGIsPreferredAndItsFramesAreTheCamerasBytes() throws {
        let camera = try camera(on: emulated(.init(formats: [.yuyv, .grey, .mjpeg])))
        XCTAssertEqual(camera.format.pixelFormat, .mjpeg)
        XCTAssertEqual(camera.format.width, 640)
        XCTAssertEqual(camera.format.height, 480)
        XCTAssertEqual(camera.format.fps, 30)
        XCTAssertEqual(camera.format.description, "MJPG 640×480 at 30 fps")
        XCTAssertEqual(try jpeg(camera.nextFrame()), try recording.jpeg(0))
    }

    /// YUYV and GREY cameras give the luma of what they saw, whatever the row padding.
    func testYUYVOnlyAndGREYOnlyCamerasGiveGrayFramesOfTheRightSize() throws {
        var decoder = JPEGDecoder()
        for format in [FourCC.yuyv, .grey] {
            for padding in [0, 32] {
                let camera = try camera(on: emulated(.init(formats: [format], rowPadding: padding)))
                XCTAssertEqual(camera.format.pixelFormat, format)
                XCTAssertEqual(camera.format.layout.bytesPerLine, (format == .yuyv ? 1280 : 640) + padding)
                for number in 0..<3 {
                    let image = try gray(camera.nextFrame())
                    XCTAssertEqual(image.width, 640)
                    XCTAssertEqual(image.height, 480)
                    let expected = try decoder.decodeGray(recording.jpeg(number), conversion: .luma)
                    XCTAssertTrue(image == expected, "\(format) padding \(padding): frame \(number) is not the scene's luma")
                }
            }
        }
    }

    /// `--format` / `camera.format`: the asked format even when a higher-ranked one is offered,
    /// and an error naming what the device offers when it is not.
    func testAnAskedFormatOverridesTheAutomaticChoice() throws {
        var decoder = JPEGDecoder()
        for format in [FourCC.yuyv, .grey] {
            let camera = try camera(on: emulated(.init(formats: [.mjpeg, .yuyv, .grey])),
                                    CameraSettings(device: "emulated-test", format: format))
            XCTAssertEqual(camera.format.pixelFormat, format)
            XCTAssertTrue(try gray(camera.nextFrame()) == decoder.decodeGray(recording.jpeg(0), conversion: .luma))
        }
        XCTAssertThrowsError(try camera(on: emulated(.init(formats: [.mjpeg, .yuyv])),
                                        CameraSettings(device: "/dev/video3", format: .grey))) { error in
            XCTAssertEqual(error as? CameraError, .formatNotOffered(device: "/dev/video3", format: "GREY", offered: ["MJPG", "YUYV"]))
            XCTAssertEqual("\(error)", "/dev/video3 does not offer GREY (it offers MJPG, YUYV); choose another with --format or camera.format, or \"auto\"")
        }
    }

    func testNearestOfferedSizeAndGrantedRateAreReported() throws {
        // The scene is 640×480; asking for 1280×720 gets the nearest size the device has.
        let camera = try camera(on: emulated(.init(formats: [.grey, .mjpeg])),
                                CameraSettings(device: "emulated-test", width: 1280, height: 720, fps: 60))
        XCTAssertEqual(camera.format.pixelFormat, .mjpeg)
        XCTAssertEqual(camera.format.width, 640)
        XCTAssertEqual(camera.format.height, 480)
        XCTAssertEqual(camera.format.fps, 30, "the device only has 30 fps; that is what is reported")
    }

    func testUnsupportedFormatsAreAnErrorNamingTheDevice() throws {
        let h264 = try XCTUnwrap(FourCC("H264"))
        let rgb = try XCTUnwrap(FourCC("RGB3"))
        XCTAssertThrowsError(try camera(on: emulated(.init(formats: [h264, rgb])), CameraSettings(device: "/dev/video7"))) { error in
            XCTAssertEqual(error as? CameraError, .noUsableFormat(device: "/dev/video7", offered: ["H264", "RGB3"]))
            XCTAssertEqual("\(error)", "/dev/video7 offers no usable pixel format (need MJPG, JPEG, YUYV or GREY; it offers H264, RGB3)")
        }
    }

    func testNotACaptureDeviceIsAnErrorNamingTheDevice() throws {
        // A UVC camera's second node: metadata, not video.
        let metadata = emulated(.init(capabilities: DeviceCapabilities.metaCapture | DeviceCapabilities.streaming, card: "Integrated Camera"))
        XCTAssertThrowsError(try camera(on: metadata, CameraSettings(device: "/dev/video1"))) { error in
            XCTAssertEqual(error as? CameraError, .notACaptureDevice(device: "/dev/video1", card: "Integrated Camera",
                                                                    capabilities: ["metadata-capture", "streaming"]))
            XCTAssertTrue("\(error)".hasPrefix("/dev/video1 (Integrated Camera) is not a streaming video capture device"), "\(error)")
        }
        // Read/write-only capture (no streaming) is not enough either.
        let readOnly = emulated(.init(capabilities: DeviceCapabilities.videoCapture | DeviceCapabilities.readWrite))
        XCTAssertThrowsError(try camera(on: readOnly)) { error in
            guard case .notACaptureDevice = error as? CameraError else { return XCTFail("\(error)") }
        }
    }
}
