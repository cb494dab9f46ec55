import Imaging

/// dlib's ensemble-of-regression-trees landmark model (Kazemi & Sullivan 2014), loaded once
/// from a serialized `shape_predictor` `.dat` file and used to fit a face shape in a box.
public final class ShapePredictor: @unchecked Sendable {
    /// Loads a model; throws `ModelError` naming the path when it is missing or malformed.
    public init(contentsOf path: String) throws {
        fatalError("not yet implemented")
    }

    /// Fits the landmarks of the face in `box`.
    public func fit(_ image: GrayImage, box: FaceBox) -> FaceShape {
        fatalError("not yet implemented")
    }
}
