/// What the processor saw of one tracked face in the last frame, for in-process consumers such
/// as the liveness check and the annotated video.
public struct FaceObservation: Sendable {
    public var id: Int
    public var box: FaceBox
    public var shape: FaceShape
    public var measures: FaceMeasures
    /// Mean gray level (0–255) inside the face box.
    public var brightness: Double
    /// The state machines' thresholds for this face.
    public var thresholds: FrameThresholds
    /// Whether a smile / an open mouth is in progress.
    public var smiling: Bool
    public var mouthOpen: Bool

    public init(id: Int, box: FaceBox, shape: FaceShape, measures: FaceMeasures, brightness: Double,
                thresholds: FrameThresholds, smiling: Bool = false, mouthOpen: Bool = false) {
        self.id = id
        self.box = box
        self.shape = shape
        self.measures = measures
        self.brightness = brightness
        self.thresholds = thresholds
        self.smiling = smiling
        self.mouthOpen = mouthOpen
    }
}
