import FaceDescriptor
import Foundation
import Imaging
import XCTest

/// `Tests/Fixtures/identity/descriptors.json` (made by Scripts/make_descriptor_fixtures.py with
/// dlib-bin) and the installed descriptor model, loaded once for all tests.
enum DescriptorFixtures {
    struct Face: Decodable {
        let name: String
        let person: String
        let image: String
        let width: Int
        let height: Int
        let pixels_fnv1a64: String
        let points: [[Int]]
        let chip: String
        let descriptor: [Double]
    }

    struct Document: Decodable {
        let faces: [Face]
    }

    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").appendingPathComponent("identity")

    static func faces() throws -> [Face] {
        let data = try Data(contentsOf: folder.appendingPathComponent("descriptors.json"))
        return try JSONDecoder().decode(Document.self, from: data).faces
    }

    static func image(_ face: Face) throws -> RGBImage {
        var decoder = JPEGDecoder()
        return try decoder.decodeRGB(try Data(contentsOf: folder.appendingPathComponent(face.image)))
    }

    static func points(_ face: Face) -> [SIMD2<Int>] {
        face.points.map { SIMD2($0[0], $0[1]) }
    }

    /// The installed model, loaded afresh for each caller (a network is not thread-safe, so
    /// tests do not share one). Skips when it is not installed, except in CI (`CI=true`), where
    /// Scripts/setup-debian installs it and its absence is a failure.
    static func network() throws -> DescriptorNetwork {
        do {
            return try DescriptorNetwork()
        } catch FaceDescriptorError.modelMissing(let searched) {
            if ProcessInfo.processInfo.environment["CI"] == "true" {
                XCTFail("CI=true but the descriptor model is not installed (looked in \(searched)); Scripts/setup-debian installs it")
                throw FaceDescriptorError.modelMissing(searched: searched)
            }
            throw XCTSkip("descriptor model not installed (looked in \(searched.joined(separator: ", "))); run Scripts/setup-models")
        }
    }

    /// The installed model's path (skips like `network()` when it is missing).
    static func installedModelPath() throws -> String {
        _ = try network()
        return try DescriptorModelLocator().locate()
    }

    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes {
            h ^= UInt64(b)
            h = h &* 0x100_0000_01b3
        }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
