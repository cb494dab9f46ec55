import Foundation
import HOGDetection
import Imaging

/// The committed model and the parity fixtures made by `Scripts/make_hog_fixtures.py`.
enum HOGFixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let modelPath = root.appendingPathComponent("Models/dlib_frontal_face_detector.dat").path
    static let folder = root.appendingPathComponent("Tests/Fixtures/hog")

    private static let shared = Result { try FrontalFaceDetector(contentsOf: modelPath) }

    static func detector() throws -> FrontalFaceDetector {
        try shared.get()
    }

    /// One image of `dlib.json`: its file, pixel hash and dlib's detections per run.
    struct Image: Decodable {
        var file: String
        var width: Int
        var height: Int
        var fnv1a64: String
        var upsample0: [[Double]]
        var upsample1: [[Double]]
        var adjusted: [[Double]]

        enum CodingKeys: String, CodingKey {
            case file, width, height, fnv1a64, upsample0, upsample1
            case adjusted = "upsample0_adjust-0.5"
        }
    }

    static func images() throws -> [String: Image] {
        struct File: Decodable { var images: [String: Image] }
        let data = try Data(contentsOf: folder.appendingPathComponent("dlib.json"))
        return try JSONDecoder().decode(File.self, from: data).images
    }

    static func gray(_ file: String) throws -> GrayImage {
        var decoder = JPEGDecoder()
        return try decoder.decodeGray(Data(contentsOf: folder.appendingPathComponent(file)))
    }

    /// FNV-1a, 64 bits, as hex: the fixtures' check that both sides decoded the same pixels.
    static func fnv1a64(_ bytes: [UInt8]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
