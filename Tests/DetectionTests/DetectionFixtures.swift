import Detection
import FaceCore
import Foundation
import Imaging
import Landmarks

/// Reference data written by Scripts/make_detection_fixtures.py (OpenCV 4.x on the same JPEGs).
struct DetectionFixtures: Decodable {
    struct Image: Decodable {
        let file: String
        let checksum: [UInt32]
    }

    struct Setting: Decodable {
        let cascade: String
        let scaleFactor: Double
        let minNeighbors: Int
        let minSize: Int
    }

    struct ResizeLevel: Decodable {
        let width: Int
        let height: Int
        let checksum: [UInt32]
    }

    struct Resize: Decodable {
        let source: String
        let levels: [ResizeLevel]
    }

    struct Integral: Decodable {
        let width: Int
        let height: Int
        let pixels: [UInt8]
        let sum: [Int64]
        let sqsum: [Int64]
        let tilted: [Int64]
    }

    let opencv_version: String
    let images: [String: Image]
    let settings: [String: Setting]
    let detections: [String: [String: [[Int]]]]
    let resize: Resize
    let integral: Integral

    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/detection")

    static func load() throws -> DetectionFixtures {
        let data = try Data(contentsOf: directory.appendingPathComponent("opencv_boxes.json"))
        return try JSONDecoder().decode(DetectionFixtures.self, from: data)
    }

    /// Decodes a fixture JPEG to gray (the Y plane, as cv2.imread(IMREAD_GRAYSCALE)).
    static func image(_ name: String) throws -> GrayImage {
        let data = try Data(contentsOf: directory.appendingPathComponent(name + ".jpg"))
        var decoder = JPEGDecoder()
        return try decoder.decodeGray(data)
    }

    /// The script's checksum: pixel sum and position-weighted sum, both mod 2^32.
    static func checksum(_ pixels: [UInt8]) -> [UInt32] {
        var sum: UInt32 = 0, weighted: UInt32 = 0
        for (index, value) in pixels.enumerated() {
            sum &+= UInt32(value)
            weighted &+= UInt32(truncatingIfNeeded: index + 1) &* UInt32(value)
        }
        return [sum, weighted]
    }

    static func boxes(_ lists: [[Int]]) -> [FaceBox] {
        lists.map { FaceBox(x: $0[0], y: $0[1], width: $0[2], height: $0[3]) }
    }
}

/// Cascades are read from Debian's opencv-data install; loaded once per test process.
enum TestCascades {
    static let cache = CascadeCache()

    static func load(_ relativePath: String) throws -> CascadeClassifier {
        try cache.load(SystemCascade.directory + "/" + relativePath)
    }
}

/// Cascades loaded once for all tests. `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
final class CascadeCache: @unchecked Sendable {
    private var loaded: [String: CascadeClassifier] = [:]
    private let lock = NSLock()

    func load(_ path: String) throws -> CascadeClassifier {
        lock.lock()
        defer { lock.unlock() }
        if let cascade = loaded[path] { return cascade }
        let cascade = try CascadeClassifier(contentsOf: path)
        loaded[path] = cascade
        return cascade
    }
}
