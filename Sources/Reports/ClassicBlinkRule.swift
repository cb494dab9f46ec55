/// The classic dlib blink recipe (Soukupová & Čech 2016, as in most tutorials), for comparison:
/// a blink is the mean EAR of both eyes below `threshold` (0.21) on at least `minFrames` (2)
/// consecutive frames. It reports the blink when the eyes open again, from the first frame below
/// to the first frame back at or above the threshold. `facewatch eval --rule classic` runs it on
/// the same landmarks as Facewatch's own detector.
public struct ClassicBlinkRule: Sendable {
    public var threshold: Double
    public var minFrames: Int
    private var below = 0
    private var start = 0.0

    public init(threshold: Double = 0.21, minFrames: Int = 2) {
        self.threshold = threshold
        self.minFrames = minFrames
    }

    /// One frame of the face: returns the blink this frame completes, if any.
    public mutating func add(t: Double, earLeft: Double, earRight: Double) -> LabeledInterval? {
        if (earLeft + earRight) / 2 < threshold {
            if below == 0 { start = t }
            below += 1
            return nil
        }
        defer { below = 0 }
        return below >= minFrames ? LabeledInterval(type: "blink", start: start, end: t) : nil
    }

    /// The face was not seen: a run of closed frames is broken off.
    public mutating func reset() {
        below = 0
    }
}
