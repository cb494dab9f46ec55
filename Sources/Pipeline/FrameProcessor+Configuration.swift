import Config
import Detection
import Landmarks
import Logging
import Tracking

extension FrameProcessor {
    /// Loads the models a configuration names (each once) and builds a processor.
    /// Throws the model's error (`DlibModelError`, `CascadeError`, ...) naming the file and the fix;
    /// the landmark model's first when both are broken.
    public convenience init(configuration: Configuration, predictor: ShapePredictor? = nil) throws {
        let detector: any FaceDetector, loaded: ShapePredictor
        if let predictor {
            (detector, loaded) = (try configuration.loadFaceDetector(), predictor)
        } else {
            // The landmark model (about 60 ms, itself read on two threads) loads on another thread
            // while this one builds the face detector (a few milliseconds of filter decomposition
            // and tables), which would otherwise wait for it.
            let loading = BackgroundLoad { try ShapePredictor(contentsOf: configuration.landmarkModel, cache: configuration.landmarkCache) }
            let made = Result { try configuration.makeFaceDetector() }
            loaded = try loading.value()
            let logger = Logger(label: "facewatch.pipeline")
            logger.info("landmark model \(configuration.landmarkModel): \(loaded.structure)")
            let description: String
            (detector, description) = try made.get()
            logger.info("\(description)")
        }
        let tracker = FaceTracker(detector: detector, predictor: loaded, settings: configuration.tracking)
        self.init(tracker: tracker, expressions: configuration.expressions, options: configuration.output,
                  conversion: configuration.gray)
    }
}
