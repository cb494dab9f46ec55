import Detection
import FaceCore
import Recordings

/// What the processor made of one frame, handed down the stream to whoever follows it (a
/// liveness check, the web session, enrolment, the annotated video) so that none of them reads
/// the processor's state.
public struct FrameResult: Sendable {
    /// The frame as it came from the source (its JPEG, or its gray pixels).
    public var frame: Frame
    /// The tracked faces, with their landmarks and measures. After a frame that could not be
    /// decoded (it yields an `error` event), those of the last good frame.
    public var faces: [FaceObservation]
    /// Faces the full-frame detector saw the last time it ran (more than are tracked is possible).
    public var facesInView: Int
    /// The detections of that run, largest first.
    public var detections: [DetectedFace]

    public init(frame: Frame, faces: [FaceObservation], facesInView: Int, detections: [DetectedFace]) {
        self.frame = frame
        self.faces = faces
        self.facesInView = facesInView
        self.detections = detections
    }

    public var index: Int { frame.index }
    public var t: Double { frame.t }
}
