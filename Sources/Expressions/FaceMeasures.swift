import Landmarks

/// Everything the expression state machines and the `frame` event need from one face in one
/// frame. All values are finite.
public struct FaceMeasures: Sendable, Equatable {
    /// Eye aspect ratio of the person's own left eye (iBUG 42–47, on the image's right in a
    /// non-mirrored camera), as ARKit and MediaPipe name it. Like `earRight`, `mar` and `smile`, it
    /// is corrected for the head's yaw (see `Foreshortening`): what the face would show frontally.
    public var earLeft: Double
    /// Eye aspect ratio of the person's right eye (iBUG 36–41).
    public var earRight: Double
    /// Mouth aspect ratio on the inner lips (see `FaceGeometry.mouthAspectRatio`).
    public var mar: Double
    /// Smile score (see `FaceGeometry.smileScore`): about 0 neutral, about 1 broad smile.
    public var smile: Double
    /// Nose tip (point 30) divided by the frame width and height: 0...1 inside the frame.
    public var nose: SIMD2<Double>
    /// Head orientation in degrees.
    public var pose: HeadPose

    public init(earLeft: Double, earRight: Double, mar: Double, smile: Double, nose: SIMD2<Double>, pose: HeadPose) {
        self.earLeft = earLeft
        self.earRight = earRight
        self.mar = mar
        self.smile = smile
        self.nose = nose
        self.pose = pose
    }

    /// Measures a 68-point shape found in a `frameWidth × frameHeight` frame.
    /// - Throws: `ExpressionError` when the shape does not have 68 points or the size is not positive.
    public init(shape: FaceShape, frameWidth: Int, frameHeight: Int, poseEstimator: HeadPoseEstimator) throws {
        guard shape.count == 68 else { throw ExpressionError.wrongPointCount(shape.count) }
        guard frameWidth > 0, frameHeight > 0 else {
            throw ExpressionError.invalidFrameSize(width: frameWidth, height: frameHeight)
        }
        self = shape.points.withUnsafeBufferPointer { p in
            let pose = poseEstimator.estimate(p)
            let turn = Foreshortening(yaw: pose.yaw)
            return FaceMeasures(
                earLeft: FaceGeometry.eyeAspectRatio(p, first: 42) * turn.leftEye,
                earRight: FaceGeometry.eyeAspectRatio(p, first: 36) * turn.rightEye,
                mar: FaceGeometry.mouthAspectRatio(p) * turn.span,
                smile: FaceGeometry.smileScore(p, liftScale: turn.span),
                nose: SIMD2(Double(p[30].x) / Double(frameWidth), Double(p[30].y) / Double(frameHeight)),
                pose: pose)
        }
    }
}
