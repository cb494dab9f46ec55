import Config
import Detection
import HOGDetection
import Logging

extension Configuration {
    /// The face detector the configuration chooses (`detector.kind`), with its model loaded:
    /// one detection path for `detect`, `landmarks`, `replay`, `eval`, `check` and `run`.
    /// Throws the model's error (naming the file and the fix) when it is missing or broken.
    public func loadFaceDetector() throws -> any FaceDetector {
        let (detector, description) = try makeFaceDetector()
        Logger(label: "facewatch.pipeline").info("\(description)")
        return detector
    }

    /// `loadFaceDetector()` without the log line: the detector and the line describing its model.
    func makeFaceDetector() throws -> (detector: any FaceDetector, description: String) {
        switch detectorKind {
        case .haar:
            let classifier = try CascadeClassifier(contentsOf: faceCascade)
            let detector = try CascadeFaceDetector(detector: CascadeDetector(classifier: classifier, settings: detector),
                                                   calibration: calibration)
            return (detector, "face cascade \(faceCascade): \(classifier.featureType.rawValue), \(classifier.stageCount) stages, \(classifier.windowWidth)×\(classifier.windowHeight) window")
        case .hog:
            let model = try FrontalFaceDetector(contentsOf: faceDetectorModel)
            return (HOGFaceDetector(model: model, settings: hog),
                    "face detector \(faceDetectorModel): dlib HOG, \(model.detectorCount) filters, \(model.windowSize.width)×\(model.windowSize.height) window, upsample \(hog.upsample)\(hog.smallFaceLook ? " (+1 while searching)" : "")")
        }
    }
}
