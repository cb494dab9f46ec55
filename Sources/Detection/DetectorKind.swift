/// The face detectors Facewatch offers (`detector.kind` in config.json, `--detector`).
public enum DetectorKind: String, CaseIterable, Sendable {
    /// dlib's HOG frontal face detector (the default): the detector dlib's landmark model was
    /// trained with; finds tilted (±30°), small and bespectacled faces the cascade misses.
    case hog
    /// An OpenCV cascade (`models.face_cascade`), its boxes calibrated to the landmark model's.
    case haar
}
