/// Limits and timings of a liveness check.
public struct CheckSettings: Sendable, Equatable {
    /// Seconds each step may take from its prompt (and the longest wait for a usable face).
    public var stepTimeout: Double = 5
    /// Seconds of a steady, usable face before the first prompt, while the daemon learns the
    /// person's open eyes and neutral face.
    public var settle: Double = 1
    /// Smallest face box side, in pixels, to start a step.
    public var minFaceSize: Int = 90
    /// Darkest mean gray level of the face (0–255) to start a step.
    public var minBrightness: Double = 40
    /// Largest |yaw| or |pitch| in degrees to start a step.
    public var maxTurn: Double = 20
    /// Yaw in degrees that counts as a head turn.
    public var turnYaw: Double = 20
    /// Pitch drop in degrees (from the pose at the prompt) that counts as the down of a nod.
    public var nodPitch: Double = 10
    /// Seconds a turn must be held.
    public var holdTurn: Double = 0.1
    /// With an identity to check: seconds between identity readings of the tracked face.
    public var identityInterval: Double = 0.25

    public init() {}
}
