import Expressions
import Landmarks

/// What the processor saw of one tracked face in the last frame, for in-process consumers such
/// as the liveness check and the annotated video.
public struct FaceObservation: Sendable {
    public var id: Int
    public var box: FaceBox
    public var shape: FaceShape
    public var measures: FaceMeasures
    /// Mean gray level (0–255) inside the face box.
    public var brightness: Double
    /// The blink detector's closing thresholds for the person's left and right eye (EAR).
    public var closeThreshold: (left: Double, right: Double)

    public init(id: Int, box: FaceBox, shape: FaceShape, measures: FaceMeasures, brightness: Double,
                closeThreshold: (left: Double, right: Double)) {
        self.id = id
        self.box = box
        self.shape = shape
        self.measures = measures
        self.brightness = brightness
        self.closeThreshold = closeThreshold
    }
}
