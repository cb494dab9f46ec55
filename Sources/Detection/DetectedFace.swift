import FaceCore

/// One face a ``FaceDetector`` found.
public struct DetectedFace: Sendable, Equatable {
    /// The box for the landmark model (dlib's HOG convention).
    public var box: FaceBox
    /// The box as the detector itself reports it: dlib's rectangle for HOG (the same as `box`),
    /// OpenCV's rectangle for a cascade (before the calibration to `box`).
    public var detectorBox: FaceBox
    /// dlib's detection score for HOG (higher is surer; 0 is the default threshold); nil for a cascade.
    public var score: Double?
    /// For HOG, which of dlib's five filters fired (0 front, 1 left, 2 right, 3–4 front turned); nil for a cascade.
    public var filter: Int?

    public init(box: FaceBox, detectorBox: FaceBox, score: Double? = nil, filter: Int? = nil) {
        self.box = box
        self.detectorBox = detectorBox
        self.score = score
        self.filter = filter
    }
}
