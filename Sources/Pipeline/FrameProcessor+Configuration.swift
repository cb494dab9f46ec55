import Detection
import Landmarks

extension FrameProcessor {
    /// Loads the models a configuration names (each once) and builds a processor.
    /// Throws `ModelError` or `CascadeError` naming the file and the Debian package to install.
    public convenience init(configuration: Configuration, predictor: ShapePredictor? = nil) throws {
        let predictor = try predictor ?? ShapePredictor(contentsOf: configuration.landmarkModel)
        let classifier = try CascadeClassifier(contentsOf: configuration.faceCascade)
        let detector = try CascadeDetector(classifier: classifier, settings: configuration.detector)
        let tracker = try FaceTracker(detector: detector, predictor: predictor, settings: configuration.tracking)
        self.init(tracker: tracker, expressions: configuration.expressions, options: configuration.output,
                  conversion: configuration.gray)
    }
}
