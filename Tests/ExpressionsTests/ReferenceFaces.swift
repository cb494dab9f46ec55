import FaceCore
import Foundation
import Landmarks

/// The reference landmarks of Tests/Fixtures/expressions/landmarks.json (made by
/// Scripts/make_expression_fixtures.py with Python dlib 20 on two public-domain portraits).
struct ReferenceFaces {
    struct Face {
        var name: String
        var width: Int
        var height: Int
        var shape: FaceShape
    }

    /// dlib's mean 68-point shape in the unit box.
    var meanShape: [SIMD2<Float>]
    var faces: [Face]

    static func load(filePath: String = #filePath) throws -> ReferenceFaces {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/expressions/landmarks.json").standardized
        let data = try Data(contentsOf: url)
        guard let root = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let mean = root["mean_shape"] as? [[Double]], let faces = root["faces"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: url.path]) }
        func points(_ a: [[Double]]) -> [SIMD2<Float>] { a.map { SIMD2(Float($0[0]), Float($0[1])) } }
        return ReferenceFaces(
            meanShape: points(mean),
            faces: faces.map {
                Face(name: $0["name"] as? String ?? "", width: $0["width"] as? Int ?? 0, height: $0["height"] as? Int ?? 0,
                     shape: FaceShape(points: points($0["points"] as? [[Double]] ?? [])))
            })
    }

    func face(_ name: String) -> Face? { faces.first { $0.name == name } }
}
