/// How `FaceTracker` balances the full-frame detector against tracking from landmarks.
public struct TrackerSettings: Sendable, Equatable {
    /// Seconds between full-frame detections while faces are tracked (to pick up new faces and
    /// count the faces in view). With no face tracked the detector runs every frame.
    public var redetectInterval: Double
    /// Most faces tracked at once; the largest are kept (1 for a KYC check).
    public var maxFaces: Int
    /// Frames between cheap checks that a track still holds a face (the cascade run on a small
    /// window around the track).
    public var verifyEvery: Int
    /// Consecutive failed checks after which a track is lost.
    public var missesToLose: Int
    /// How a detector box becomes the box the landmark model expects, before one refit.
    public var calibration: BoxCalibration

    public init(redetectInterval: Double = 1.0, maxFaces: Int = 1, verifyEvery: Int = 3, missesToLose: Int = 2,
                calibration: BoxCalibration = .haarFrontalFaceAlt) {
        self.redetectInterval = redetectInterval
        self.maxFaces = maxFaces
        self.verifyEvery = verifyEvery
        self.missesToLose = missesToLose
        self.calibration = calibration
    }
}
