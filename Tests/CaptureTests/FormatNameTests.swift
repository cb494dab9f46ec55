import Capture
import XCTest

/// `camera.format` and `--format` names to pixel formats.
final class FormatNameTests: XCTestCase {
    func testFormatNames() {
        XCTAssertEqual(FourCC(formatName: "mjpg"), .mjpeg)
        XCTAssertEqual(FourCC(formatName: "YUYV"), .yuyv)
        XCTAssertEqual(FourCC(formatName: "grey"), .grey)
        XCTAssertNil(FourCC(formatName: "auto"), "auto ranks the camera's formats")
        XCTAssertNil(FourCC(formatName: "h264"))
    }
}
