import Config
import Detection
import HOGDetection
import Logging

extension Configuration {
    /// The face detector the configuration chooses (`detector.kind`), with its model loaded:
    /// one detection path for `detect`, `landmarks`, `replay`, `eval`, `check` and `run`.
    /// Throws the model's error (naming the file and the fix) when it is missing or broken.
    public func loadFaceDetector() throws -> any FaceDetector {
        let logger = Logger(label: "facewatch.pipeline")
        switch detectorKind {
        case .haar:
            let classifier = try CascadeClassifier(contentsOf: faceCascade)
            logger.info("face cascade \(faceCascade): \(classifier.featureType.rawValue), \(classifier.stageCount) stages, \(classifier.windowWidth)×\(classifier.windowHeight) window")
            return try CascadeFaceDetector(detector: CascadeDetector(classifier: classifier, settings: detector),
                                           calibration: calibration)
        case .hog:
            let model = try FrontalFaceDetector(contentsOf: faceDetectorModel)
            logger.info("face detector \(faceDetectorModel): dlib HOG, \(model.detectorCount) filters, \(model.windowSize.width)×\(model.windowSize.height) window, upsample \(hog.upsample)\(hog.smallFaceLook ? " (+1 while searching)" : "")")
            return HOGFaceDetector(model: model, settings: hog)
        }
    }
}
