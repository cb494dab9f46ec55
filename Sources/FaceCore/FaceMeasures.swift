/// Everything the expression state machines and the `frame` event need from one face in one
/// frame. All values are finite.
public struct FaceMeasures: Sendable, Equatable {
    /// Eye aspect ratio of the person's own left eye (iBUG 42–47, on the image's right in a
    /// non-mirrored camera), as ARKit and MediaPipe name it. Like `earRight`, `mar` and `smile`, it
    /// is corrected for the head's yaw (see `Expressions.Foreshortening`): what the face would show frontally.
    public var earLeft: Double
    /// Eye aspect ratio of the person's right eye (iBUG 36–41).
    public var earRight: Double
    /// Mouth aspect ratio on the inner lips (see `Expressions.FaceGeometry.mouthAspectRatio`).
    public var mar: Double
    /// Smile score (see `Expressions.FaceGeometry.smileScore`): about 0 neutral, about 1 broad smile.
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
}
