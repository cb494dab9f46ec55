import Foundation
import XCTest

/// `facewatch detect IMAGE` and `facewatch landmarks IMAGE` (without `--box`) run one detection
/// path: on every fixture, with either detector, landmarks finds a face exactly when detect
/// reports one, and with HOG fits it in detect's largest box.
final class DetectLandmarksAgreementTests: XCTestCase {
    private var binary: URL {
        var url = Bundle(for: DetectLandmarksAgreementTests.self).bundleURL
        while url.pathExtension == "xctest" || url.lastPathComponent == "Contents" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("facewatch")
    }

    private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    private func run(_ arguments: [String]) throws -> (status: Int32, output: Data) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, data)
    }

    func testDetectAndLandmarksAgreeOnTheFixtures() throws {
        let images = ["detection/hopper.jpg", "detection/hopper_dim.jpg", "detection/hopper_small.jpg",
                      "detection/astronaut_small.jpg", "detection/astronaut_large.jpg", "detection/astronaut_rotated25.jpg",
                      "detection/several.jpg", "detection/no_face.jpg",
                      "landmarks/hog/astronaut_rot-20.jpg", "landmarks/hog/hopper_persp_left.jpg", "landmarks/hog/astronaut_w80.jpg"]
        var facesSeen = 0
        for kind in ["hog", "haar"] {
            for image in images {
                let path = fixtures.appendingPathComponent(image).path
                let detect = try run(["detect", path, "--detector", kind])
                XCTAssertEqual(detect.status, 0, "\(kind) \(image)")
                let object = try XCTUnwrap(JSONSerialization.jsonObject(with: detect.output) as? [String: Any], "\(kind) \(image)")
                let faces = try XCTUnwrap(object["faces"] as? [[String: Any]])
                XCTAssertEqual(object["detector"] as? String, kind)
                let landmarks = try run(["landmarks", path, "--detector", kind])
                XCTAssertEqual(landmarks.status == 0, !faces.isEmpty, "\(kind) \(image): landmarks finds a face exactly when detect does")
                guard landmarks.status == 0, let first = faces.first else { continue }
                facesSeen += 1
                let fitted = try XCTUnwrap(JSONSerialization.jsonObject(with: landmarks.output) as? [String: Any])
                if kind == "hog" {
                    XCTAssertEqual(fitted["box"] as? [Int], first["box"] as? [Int], "\(image): fitted in detect's largest box")
                }
                XCTAssertEqual((fitted["landmarks"] as? [[Double]])?.count, 68)
            }
        }
        XCTAssertGreaterThanOrEqual(facesSeen, 15, "most fixtures hold a face for both detectors")
    }
}
