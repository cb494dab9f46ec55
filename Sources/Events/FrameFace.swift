import FaceCore

/// One face in a `frame` event.
public struct FrameFace: Sendable, Equatable {
    public var face: Int
    public var box: FaceBox
    /// EAR of the person's left eye (iBUG 42–47) and right eye (36–41).
    public var earLeft: Double
    public var earRight: Double
    public var mar: Double
    public var smile: Double
    /// Nose tip normalised to 0...1 of the frame width and height.
    public var nose: SIMD2<Double>
    /// Head pose in degrees (written as `pose`: {yaw, pitch, roll}, a field added to the spec).
    public var yaw: Double
    public var pitch: Double
    public var roll: Double
    /// The state machines' thresholds (written as `thresholds`; nil: left out).
    public var thresholds: FrameThresholds?
    /// The 68 landmarks in pixels, when asked for (nil: the `landmarks` key is left out).
    public var landmarks: [SIMD2<Float>]?

    public init(
        face: Int, box: FaceBox, earLeft: Double, earRight: Double, mar: Double, smile: Double,
        nose: SIMD2<Double>, yaw: Double, pitch: Double, roll: Double, thresholds: FrameThresholds? = nil,
        landmarks: [SIMD2<Float>]? = nil
    ) {
        self.face = face
        self.box = box
        self.earLeft = earLeft
        self.earRight = earRight
        self.mar = mar
        self.smile = smile
        self.nose = nose
        self.yaw = yaw
        self.pitch = pitch
        self.roll = roll
        self.thresholds = thresholds
        self.landmarks = landmarks
    }
}
