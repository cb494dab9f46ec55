import Foundation

/// How much a head turn (yaw) shortens the widths the aspect ratios divide by, from the
/// `GenericFaceModel` geometry, so that a turned face's ratios can be brought back to what the
/// same face would show looking at the camera.
///
/// With the camera's x = cos(yaw)·x − sin(yaw)·z (see `HeadPose`), a segment (dx, dz) of the model
/// projects to a width proportional to cos(yaw ± its angle out of the image plane):
/// - an eye's corners (outer corner 13 mm deeper than the inner one over 26.9 mm) lie on a
///   surface turned by `eyeAngle` ≈ 25.8° away from the camera, so the person's left eye
///   (x > 0) keeps cos(yaw + eyeAngle)/cos(eyeAngle) of its width and the right eye
///   cos(yaw − eyeAngle)/cos(eyeAngle): turning towards one's left shrinks the left (far) eye
///   and first widens, then shrinks the right (near) one;
/// - the mouth corners and the eye centres are level in depth: their spans keep cos(yaw).
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

    /// Angle of the eye surface out of the image plane in the generic model (radians).
    public static let eyeAngle = atan2(45.0 - 32.0, 46.4 - 19.5)
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
