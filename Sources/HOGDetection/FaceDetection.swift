/// One face found by `FrontalFaceDetector`, as dlib reports it.
///
/// The box is dlib's `rectangle`: `left...right` × `top...bottom`, both ends inclusive, in the
/// pixel coordinates of the image that was scanned (it may reach outside the image, as in dlib).
public struct FaceDetection: Sendable, Equatable {
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int
    /// dlib's detection confidence: the filter response minus the model's threshold
    /// (`detector.run(...)`'s second list); ≥ `adjustThreshold` for every reported face.
    public var score: Double
    /// Which of the model's filters fired (dlib's `weight_index`): for the frontal face model
    /// 0 front, 1 left, 2 right, 3 front rotated left, 4 front rotated right.
    public var detector: Int

    public init(left: Int, top: Int, right: Int, bottom: Int, score: Double, detector: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
        self.score = score
        self.detector = detector
    }

    /// Top-left corner and size, for APIs that take x/y/width/height.
    public var x: Int { left }
    public var y: Int { top }
    public var width: Int { right - left + 1 }
    public var height: Int { bottom - top + 1 }
}
