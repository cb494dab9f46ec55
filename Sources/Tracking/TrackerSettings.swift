/// How `FaceTracker` balances the full-frame detector against tracking from landmarks.
public struct TrackerSettings: Sendable, Equatable {
    /// Seconds between full-frame scans while faces are tracked (to pick up a second person
    /// walking in, or a face lost to a fast turn, and to count the faces in view).
    public var redetectInterval: Double
    /// Seconds between full-frame scans of an empty view that does not change (default 1 s). A
    /// kiosk waiting all day pays for one scan per interval, not one per frame.
    public var emptyScanInterval: Double
    /// Seconds between full-frame scans of an empty view that changes (someone walking in);
    /// default 0.2 s, so a face is found within about 0.3 s of coming into view. Change is judged
    /// by a ``MotionGate`` against the last scanned frame.
    public var motionScanInterval: Double
    /// Most faces tracked at once; the largest are kept (1 for a KYC check).
    public var maxFaces: Int
    /// Frames between cheap checks that a track still holds a face (the detector run on the area
    /// around the track).
    public var verifyEvery: Int
    /// Consecutive failed checks after which a track is lost.
    public var missesToLose: Int

    /// A full-frame detection that overlaps a track (IoU above 0.3, or holding a smaller track at
    /// least half inside it) by less than this re-seeds the track's landmarks from the detection's
    /// box: they had drifted onto part of the face (after a fast move, the fit can settle on a
    /// smaller face-like shape and carry its box along from frame to frame). Tracked faces overlap
    /// their detections by 0.55 or more, 0.85 at the median (measured against dlib's detector on
    /// the bundled and corpus recordings), so a face tracked well is never re-seeded.
    public var reseedOverlap = 0.5

    /// Threads a frame's tracking may use: 2 fits a face's landmarks on a second thread while its
    /// window check runs (on the frames with a check, when there is a second processor); the
    /// check then turns its window by the face's tilt in the previous frame. The same faces and
    /// points either way.
    public var threads: Int

    public init(redetectInterval: Double = 1.0, emptyScanInterval: Double = 1.0, motionScanInterval: Double = 0.2,
                maxFaces: Int = 4, verifyEvery: Int = 3, missesToLose: Int = 2, threads: Int = 2) {
        self.redetectInterval = redetectInterval
        self.emptyScanInterval = emptyScanInterval
        self.motionScanInterval = motionScanInterval
        self.maxFaces = maxFaces
        self.verifyEvery = verifyEvery
        self.missesToLose = missesToLose
        self.threads = threads
    }
}
