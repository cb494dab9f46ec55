/// Head orientation in degrees, in the camera's view (a non-mirrored image: the person's left
/// is on the image's right).
///
/// - `yaw` > 0: the person turns towards their own left (the nose moves to the image's right).
/// - `pitch` > 0: the person looks up (the nose moves up in the image).
/// - `roll` > 0: the head tilts towards the person's left shoulder, i.e. the face turns
///   clockwise on screen (the person's left eye, on the image's right, goes down).
///
/// The rotation taking the generic face model (x to the person's left, y down, z away from the
/// camera) into the camera frame is `R = Rz(roll) · Rx(pitch) · Ry(yaw)` with
/// `Ry = [[c, 0, −s], [0, 1, 0], [s, 0, c]]`, `Rx = [[1, 0, 0], [0, c, s], [0, −s, c]]`,
/// `Rz = [[c, −s, 0], [s, c, 0], [0, 0, 1]]`.
public struct HeadPose: Sendable, Equatable {
    public var yaw: Double
    public var pitch: Double
    public var roll: Double

    public init(yaw: Double, pitch: Double, roll: Double) {
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
    }
}
