import FaceCore

extension FaceMeasures {
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
