import DlibFormat
import Foundation
import Landmarks
import XCTest

final class ModelLoadingTests: XCTestCase {
    func testDebianModelHasTheExpectedStructure() throws {
        let predictor = try ModelFixture.predictor()
        XCTAssertEqual(predictor.structure, ModelStructure(cascades: 15, treesPerCascade: 500, leavesPerTree: 16,
                                                           featuresPerCascade: 500, landmarks: 68))
    }

    func testMissingFileNamesThePathAndThePackage() {
        let path = "/nonexistent/shape_predictor_68_face_landmarks.dat"
        XCTAssertThrowsError(try ShapePredictor(contentsOf: path)) { error in
            let error = error as? DlibModelError
            XCTAssertEqual(error?.reason, .missing("no such file"))
            let text = error?.description ?? ""
            XCTAssertTrue(text.hasPrefix(path), text)
            XCTAssertTrue(text.contains("apt-get install libdlib-data"), text)
            XCTAssertFalse(text.contains("\n"), "one line")
        }
    }

    func testAFileThatIsNotAModelIsMalformed() throws {
        let url = try temporaryFile(Data("{\"this\": \"is json, not a dlib model\"}".utf8))
        XCTAssertThrowsError(try ShapePredictor(contentsOf: url.path)) { error in
            guard case .malformed = (error as? DlibModelError)?.reason else { return XCTFail("\(error)") }
        }
    }

    func testAWrongVersionIsMalformed() throws {
        let url = try temporaryFile(Data([0x01, 0x02, 0x81, 0x88]))
        XCTAssertThrowsError(try ShapePredictor(contentsOf: url.path)) { error in
            XCTAssertEqual((error as? DlibModelError)?.reason, .malformed("unsupported version 2 (expected 1)"))
        }
    }

    func testATruncatedModelSaysSo() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: ModelFixture.path), options: .alwaysMapped)
        for cut in [3, 1000, whole.count / 2, whole.count - 1] {
            XCTAssertThrowsError(try ShapePredictor(serialized: whole.prefix(cut), path: "cut.dat")) { error in
                guard case .truncated(let at)? = (error as? DlibModelError)?.reason else { return XCTFail("cut \(cut): \(error)") }
                XCTAssertLessThanOrEqual(at, cut)
            }
        }
    }

    func testTrailingBytesAreRejected() throws {
        var data = try Data(contentsOf: URL(fileURLWithPath: ModelFixture.path))
        data.append(contentsOf: [0x01, 0x00])
        XCTAssertThrowsError(try ShapePredictor(serialized: data, path: "long.dat")) { error in
            guard case .malformed = (error as? DlibModelError)?.reason else { return XCTFail("\(error)") }
        }
    }

    private func temporaryFile(_ data: Data) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-\(UUID().uuidString).dat")
        try data.write(to: url)
        addTeardownBlock { try? FileManager.default.removeItem(at: url) }
        return url
    }
}
