/// Settings of dlib's HOG frontal face detector as Facewatch runs it (`detector.*` in config.json).
public struct HOGSettings: Sendable, Equatable {
    /// Times the frame is doubled before the scan (dlib's `upsample_num_times`). 0 (the default)
    /// finds faces from about 80 px at about 20 ms per 640×480 frame on one 2 GHz core; each
    /// upsampling halves the smallest face and costs about four times as much.
    public var upsample: Int
    /// Added to dlib's detection threshold (dlib's `adjust_threshold`): below 0 finds more faces
    /// and more false ones.
    public var adjustThreshold: Double
    /// While nothing is tracked, a search adds a look with one more upsampling (faces from about
    /// 40 px: someone a few metres from a webcam). Default true.
    public var smallFaceLook: Bool
    /// Threads a full-frame scan may use: 2 (the default) scans half of the pyramid's pixels on a
    /// second thread, for about 40 % less time per search, when the machine has two processors or
    /// more; 1 keeps every scan on the processing thread. The faces found are the same either way.
    public var threads: Int

    public init(upsample: Int = 0, adjustThreshold: Double = 0, smallFaceLook: Bool = true, threads: Int = 2) {
        self.upsample = upsample
        self.adjustThreshold = adjustThreshold
        self.smallFaceLook = smallFaceLook
        self.threads = threads
    }
}
