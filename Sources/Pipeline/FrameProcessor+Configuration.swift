import Config
import Detection
import Landmarks
import Logging

extension FrameProcessor {
    /// Loads the models a configuration names (each once) and builds a processor.
    /// Throws `ModelError` or `CascadeError` naming the file and the Debian package to install.
    public convenience init(configuration: Configuration, predictor: ShapePredictor? = nil) throws {
        let logger = Logger(label: "facewatch.pipeline")
        let predictor = try predictor ?? {
            let loaded = try ShapePredictor(contentsOf: configuration.landmarkModel)
            logger.info("landmark model \(configuration.landmarkModel): \(loaded.structure)")
            return loaded
        }()
        let classifier = try CascadeClassifier(contentsOf: configuration.faceCascade)
        logger.info("face cascade \(configuration.faceCascade): \(classifier.featureType.rawValue), \(classifier.stageCount) stages, \(classifier.windowWidth)×\(classifier.windowHeight) window")
        let detector = try CascadeDetector(classifier: classifier, settings: configuration.detector)
        let tracker = try FaceTracker(detector: detector, predictor: predictor, settings: configuration.tracking)
        self.init(tracker: tracker, expressions: configuration.expressions, options: configuration.output,
                  conversion: configuration.gray)
    }
}
