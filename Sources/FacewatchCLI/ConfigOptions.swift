import ArgumentParser
import Config
import Detection
import Logging

/// Options every command that loads models shares: the config file and per-run overrides.
struct ConfigOptions: ParsableArguments {
    @Option(help: "A config.json (every setting and its default: see the repository's config.json).")
    var config: String?

    @Option(help: "Override models.landmarks: the dlib shape_predictor .dat file.")
    var model: String?

    @Option(help: "Override models.face_cascade: an OpenCV cascade XML file (for --detector haar).")
    var cascade: String?

    @Option(help: "Override detector.kind: hog (dlib's HOG frontal face detector, the default) or haar (the OpenCV cascade).")
    var detector: DetectorKind?

    @Option(help: "Override detector.upsample: times the frame is doubled before a HOG scan (0 finds faces from ~80 px, 1 from ~40 px at ~4× the cost).")
    var upsample: Int?

    /// The configuration: the file's settings (or the defaults) with the overrides applied.
    func load() throws -> Configuration {
        var configuration = try config.map { try Configuration(contentsOf: $0) } ?? Configuration()
        if let model { configuration.landmarkModel = model }
        if let cascade { configuration.setFaceCascade(cascade) }
        if let detector { configuration.detectorKind = detector }
        if let upsample {
            guard (0...3).contains(upsample) else { throw ValidationError("--upsample must be 0...3 (got \(upsample))") }
            configuration.hog.upsample = upsample
        }
        return configuration
    }
}

/// The process's logger: swift-log to standard error (standard output carries the events).
enum Log {
    static let shared: Logger = {
        LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }
        var logger = Logger(label: "facewatch")
        logger.logLevel = .info
        return logger
    }()
}

extension DetectorKind: ExpressibleByArgument {}
