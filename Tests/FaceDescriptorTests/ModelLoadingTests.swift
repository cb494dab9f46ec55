import DlibFormat
import FaceDescriptor
import Foundation
import XCTest

final class ModelLoadingTests: XCTestCase {
    func testMissingModelNamesEveryFolderAndTheSetupScript() {
        XCTAssertEqual(DescriptorModelLocator(environment: ["HOME": "/nonexistent/home"]).directories,
                       ["/nonexistent/home/.local/share/facewatch/models", "/usr/local/share/facewatch/models",
                        "/var/lib/facewatch/models"])
        XCTAssertEqual(DescriptorModelLocator(environment: ["XDG_DATA_HOME": "/x", "HOME": "/h"]).directories,
                       ["/x/facewatch/models", "/usr/local/share/facewatch/models", "/var/lib/facewatch/models"])
        let locator = DescriptorModelLocator(environment: ["FACEWATCH_MODELS": "/nonexistent/a", "HOME": "/nonexistent/home"])
        XCTAssertEqual(locator.directories, ["/nonexistent/a"], "an explicit folder is the only place looked in")
        XCTAssertThrowsError(try locator.locate()) { error in
            XCTAssertTrue("\(error)".contains("Scripts/setup-models"), "\(error)")
        }
    }

    func testMissingModelMessageIsOneLineNamingTheScript() {
        let text = "\(FaceDescriptorError.modelMissing(searched: ["/a", "/b"]))"
        XCTAssertFalse(text.contains("\n"))
        XCTAssertTrue(text.contains("dlib_face_recognition_resnet_model_v1.dat"))
        XCTAssertTrue(text.contains("Scripts/setup-models"))
    }

    func testDamagedModelsAreRejectedWithThePath() throws {
        let path = try DescriptorFixtures.installedModelPath()
        let model = try Data(contentsOf: URL(fileURLWithPath: path))
        let folder = NSTemporaryDirectory() + "facewatch-model-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let damaged: [(String, Data)] = [
            ("empty", Data()),
            ("truncated", model.prefix(model.count / 2)),
            ("trailing", model + Data([1, 2, 3])),
            ("landmarks", try Data(contentsOf: URL(fileURLWithPath: "/usr/share/dlib/shape_predictor_68_face_landmarks.dat")).prefix(1_000_000)),
        ]
        for (name, bytes) in damaged {
            let file = folder + "/" + name.replacingOccurrences(of: " ", with: "_") + ".dat"
            try bytes.write(to: URL(fileURLWithPath: file))
            XCTAssertThrowsError(try DescriptorNetwork(contentsOf: file), name) { error in
                guard case .malformed(let p, _)? = error as? FaceDescriptorError else { return XCTFail("\(name): \(error)") }
                XCTAssertEqual(p, file)
                XCTAssertTrue("\(error)".contains("Scripts/setup-models"))
            }
        }
    }

    func testTensorAndStringHeadersAreCheckedBeforeAllocating() {
        func read<T>(_ bytes: [UInt8], _ body: (inout DlibDeserializer) throws -> T) throws -> T {
            try bytes.withUnsafeBytes { raw in
                var reader = DlibDeserializer(raw)
                return try body(&reader)
            }
        }
        let big: [UInt8] = [0x04, 0xFF, 0xFF, 0xFF, 0x7F]
        // version 2, four dimensions of 2^31-1: overflows; 1×1×1000×1000 floats: more than the bytes left.
        XCTAssertThrowsError(try read([0x01, 0x02] + big + big + big + big) { try $0.readTensor() })
        XCTAssertThrowsError(try read([0x01, 0x02, 0x01, 0x01, 0x01, 0x01, 0x02, 0xE8, 0x03, 0x02, 0xE8, 0x03, 0, 0, 0, 0]) { try $0.readTensor() })
        XCTAssertThrowsError(try read([0x01, 0x03, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01]) { try $0.readTensor() }, "version 3")
        XCTAssertThrowsError(try read([0x01, 0x02, 0x81, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01]) { try $0.readTensor() }, "negative dimension")
        XCTAssertEqual(try read([0x01, 0x02, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x02, 0, 0, 0x80, 0x3F, 0, 0, 0, 0x40]) { try $0.readTensor() }.values, [1, 2])
        XCTAssertThrowsError(try read(big + [0x61]) { try $0.readString() }, "a 2 GB string in 6 bytes")
        XCTAssertEqual(try read([0x01, 0x02, 0x68, 0x69]) { try $0.readString() }, "hi")
        XCTAssertThrowsError(try read([0x32]) { try $0.readBool() })
        XCTAssertEqual(try read([0x31]) { try $0.readBool() }, true)
    }
}
