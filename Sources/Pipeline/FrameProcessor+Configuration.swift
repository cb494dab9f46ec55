import Config
import Detection
import Landmarks
import Logging

extension FrameProcessor {
    /// Loads the models a configuration names (each once) and builds a processor.
    /// Throws the model's error (`DlibModelError`, `CascadeError`, ...) naming the file and the fix.
    public convenience init(configuration: Configuration, predictor: ShapePredictor? = nil) throws {
        let logger = Logger(label: "facewatch.pipeline")
        let predictor = try predictor ?? {
            let loaded = try ShapePredictor(contentsOf: configuration.landmarkModel)
            logger.info("landmark model \(configuration.landmarkModel): \(loaded.structure)")
            return loaded
        }()
        let tracker = FaceTracker(detector: try configuration.loadFaceDetector(), predictor: predictor,
                                  settings: configuration.tracking)
        self.init(tracker: tracker, expressions: configuration.expressions, options: configuration.output,
                  conversion: configuration.gray)
    }
}
