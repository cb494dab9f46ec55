import DlibFormat
import Foundation
import HOGDetection
import XCTest

final class ModelLoadingTests: XCTestCase {
    func testTheCommittedModelIsDlibsFrontalDetector() throws {
        let detector = try HOGFixture.detector()
        XCTAssertEqual(detector.detectorCount, 5)
        XCTAssertEqual(detector.cellSize, 8)
        XCTAssertEqual(detector.filterWidth, 10)
        XCTAssertEqual(detector.filterHeight, 10)
        XCTAssertEqual(detector.windowSize.width, 80)
        XCTAssertEqual(detector.windowSize.height, 80)
    }

    func testMissingFileIsOneLineNamingThePathAndTheFix() {
        let path = "/nonexistent/dlib_frontal_face_detector.dat"
        XCTAssertThrowsError(try FrontalFaceDetector(contentsOf: path)) { error in
            let error = error as? DlibModelError
            XCTAssertEqual(error?.reason, .missing("no such file"))
            let text = error?.description ?? ""
            XCTAssertTrue(text.hasPrefix(path + ": "), text)
            XCTAssertTrue(text.contains("Scripts/setup-debian"), text)
            XCTAssertFalse(text.contains("\n"), "one line")
        }
    }

    func testAForeignFileIsMalformed() throws {
        // The 68-point landmark model is a dlib file too, but not a detector.
        for bytes in [Data("{\"this\": \"is json\"}".utf8), Data([0x01, 0x01, 0x01, 0x02]), Data([0x01, 0x02, 0x01, 0x03])] {
            XCTAssertThrowsError(try FrontalFaceDetector(serialized: bytes, path: "x.dat")) { error in
                guard case .malformed = (error as? DlibModelError)?.reason else { return XCTFail("\(error)") }
                XCTAssertTrue("\(error)".hasPrefix("x.dat: not a dlib HOG face detector model: "), "\(error)")
            }
        }
    }

    func testATruncatedModelSaysWhere() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: HOGFixture.modelPath))
        XCTAssertEqual(whole.count, 155_005)
        for cut in [1, 5, 30, 60, 1000, whole.count / 2, whole.count - 1] {
            XCTAssertThrowsError(try FrontalFaceDetector(serialized: whole.prefix(cut), path: "cut.dat")) { error in
                guard case .truncated(let at)? = (error as? DlibModelError)?.reason else { return XCTFail("cut \(cut): \(error)") }
                XCTAssertLessThanOrEqual(at, cut)
            }
        }
    }

    func testAVectorLongerThanTheRestOfTheFileIsTruncation() throws {
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: HOGFixture.modelPath)))
        // The first weight vector (3101 rows: 0x82 0x1d 0x0c, 1 column: 0x81 0x01) cut after 100
        // values: its declared length cannot fit the bytes left, which is truncation.
        let header: [UInt8] = [0x82, 0x1d, 0x0c, 0x81, 0x01]
        let at = try XCTUnwrap((0..<bytes.count - 5).first { Array(bytes[$0..<($0 + 5)]) == header })
        bytes.removeSubrange((at + 3 + 2 + 4 * 100)...)
        XCTAssertThrowsError(try FrontalFaceDetector(serialized: Data(bytes), path: "short.dat")) { error in
            guard case .truncated? = (error as? DlibModelError)?.reason else { return XCTFail("\(error)") }
        }
    }

    func testChangedDimensionsAndTrailingBytesAreRejected() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: HOGFixture.modelPath))
        var long = whole
        long.append(contentsOf: [0x01, 0x00])
        XCTAssertThrowsError(try FrontalFaceDetector(serialized: long, path: "long.dat")) { error in
            XCTAssertEqual((error as? DlibModelError)?.reason, .malformed("2 bytes after the model"))
        }
        var wide = [UInt8](whole)
        XCTAssertEqual(wide[13], 0x50, "window width byte")
        wide[13] = 0x58  // an 88-pixel window needs 11×10 filters: 3410 dimensions, 3100 stored
        XCTAssertThrowsError(try FrontalFaceDetector(serialized: Data(wide), path: "wide.dat")) { error in
            guard case .malformed(let detail)? = (error as? DlibModelError)?.reason else { return XCTFail("\(error)") }
            XCTAssertTrue(detail.contains("3100 dimensions stored"), detail)
        }
    }
}
