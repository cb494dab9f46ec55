import Foundation

/// How much a head turn (yaw) shortens the widths the aspect ratios divide by, so that a turned
/// face's ratios can be brought back to what the same face would show looking at the camera.
///
/// With the camera's x = cos(yaw)·x − sin(yaw)·z (see `HeadPose`), a segment (dx, dz) projects to
/// a width proportional to cos(yaw ± its angle out of the image plane):
/// - an eye's corners lie on a surface turned by `eyeAngle` (13°) away from the camera, so the
///   person's left eye (x > 0) keeps cos(yaw + eyeAngle)/cos(eyeAngle) of its width and the right
///   eye cos(yaw − eyeAngle)/cos(eyeAngle): turning towards one's left shrinks the left (far) eye
///   most and the right (near) one a little;
/// - the mouth corners and the eye centres are level in depth (`GenericFaceModel`): their spans
///   keep cos(yaw).
///
/// Eye and mouth heights are vertical and do not change with yaw, so dividing the measured EAR
/// and MAR by these factors' inverses (multiplying by the factor) undoes the turn; the smile
/// score's width term is a ratio of two spans that shrink alike, its lift term is a height over
/// the eye span and is multiplied by cos(yaw). Beyond `maxYaw` the factors are held at their
/// `maxYaw` values (the state machines are suspended there anyway).
public struct Foreshortening: Sendable, Equatable {
    /// Width kept by the person's left eye (iBUG 42–47), right eye (36–41) and the mouth / eye span.
    public let leftEye: Double
    public let rightEye: Double
    public let span: Double

    /// Angle of the eye surface out of the image plane (radians): 13°, what MediaPipe's face mesh
    /// estimates from the two bundled portraits (11.7–13.7° between the eye corners' depths) and
    /// how wide dlib's eye points stay on faces rendered turned from that mesh (the corrected EAR
    /// of both eyes within about 10 % of frontal at 40°). The generic model's anthropometric
    /// corners (13 mm deeper over 26.9 mm, 25.8°), used for the pose, over-correct dlib's far eye:
    /// its landmarks shrink less than the eye, and its corrected EAR fell to the close threshold
    /// at 40° (Recordings/README.md, "Faces, tilts and turns").
    public static let eyeAngle = 13.0 * Double.pi / 180
    /// Largest |yaw| (degrees) corrected for.
    public static let maxYaw = 60.0

    /// The factors for a head turned by `yaw` degrees (`HeadPose.yaw`).
    public init(yaw: Double) {
        let clamped = yaw.isFinite ? min(max(yaw, -Self.maxYaw), Self.maxYaw) : 0
        let y = clamped * Double.pi / 180
        let a = Self.eyeAngle
        leftEye = cos(y + a) / cos(a)
        rightEye = cos(y - a) / cos(a)
        span = cos(y)
    }

    /// No turn: every factor 1.
    public static let frontal = Foreshortening(yaw: 0)
}
