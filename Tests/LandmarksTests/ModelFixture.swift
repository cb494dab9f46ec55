import Foundation
import Landmarks

/// The Debian model (`apt-get install libdlib-data`), loaded once for all tests.
enum ModelFixture {
    static let path = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"

    private static let shared = Result { try ShapePredictor(contentsOf: path) }

    static func predictor() throws -> ShapePredictor {
        try shared.get()
    }

    /// `Tests/Fixtures/<name>`.
    static func fixture(_ name: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(name)
    }
}
