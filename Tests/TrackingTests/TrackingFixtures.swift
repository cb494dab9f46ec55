import Detection
import Foundation
import Imaging
import Landmarks

/// Shared inputs of the box-mapping and tracking tests: the Debian models and the dlib reference
/// landmarks of `Tests/Fixtures/landmarks/hog_faces.json` (Scripts/make_landmark_fixtures.py).
enum TrackingFixtures {
    static let modelPath = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    private static let sharedPredictor = Result { try ShapePredictor(contentsOf: modelPath) }

    static func predictor() throws -> ShapePredictor { try sharedPredictor.get() }

    static func url(_ relative: String) -> URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures").appendingPathComponent(relative)
    }

    static func gray(_ relative: String) throws -> GrayImage {
        var decoder = JPEGDecoder()
        return try decoder.decodeGray(try Data(contentsOf: url(relative)))
    }

    /// The cascade detector as configured by default: `haarcascade_frontalface_alt.xml`, scale 1.2,
    /// 3 neighbours, at least `minSize` px, with its box calibration.
    static func detector(minSize: Int = 80) throws -> CascadeFaceDetector {
        let classifier = try CascadeClassifier(contentsOf: SystemCascade.haarFrontalFaceAlt.path)
        return try CascadeFaceDetector(
            detector: CascadeDetector(classifier: classifier, settings: DetectorSettings(scaleFactor: 1.2, minNeighbors: 3, minSize: minSize)),
            calibration: .haarFrontalFaceAlt)
    }

    struct HogFaces: Decodable {
        struct Image: Decodable {
            let file: String
            let hog_box: [Int]?
            let points_float: [[Double]]?
        }
        let images: [Image]
    }

    static func hogFaces() throws -> HogFaces {
        try JSONDecoder().decode(HogFaces.self, from: Data(contentsOf: url("landmarks/hog_faces.json")))
    }

    /// Distance between the eye centres (means of points 36–41 and 42–47).
    static func interocular(_ points: [SIMD2<Double>]) -> Double {
        let right = points[36...41].reduce(SIMD2<Double>.zero, +) / 6
        let left = points[42...47].reduce(SIMD2<Double>.zero, +) / 6
        return ((left - right) * (left - right)).sum().squareRoot()
    }
}
