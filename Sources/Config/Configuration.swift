import Detection
import Events
import Expressions
import Foundation
import Imaging
import Landmarks
import Pointer
import Tracking

/// Every setting of the daemon and its tools, as read from `config.json` (see the README's
/// table; the repository's `config.json` lists each with its default). Unknown keys and bad
/// values are rejected with the key's name.
public struct Configuration: Sendable, Equatable {
    /// dlib `shape_predictor` model (Debian `libdlib-data`).
    public var landmarkModel = "/usr/share/dlib/shape_predictor_68_face_landmarks.dat"
    /// dlib's HOG frontal face detector (installed by Scripts/setup-debian from the repository's
    /// Models/ folder, or by the Debian package): see `installedFaceDetectorModel`.
    public var faceDetectorModel = Configuration.installedFaceDetectorModel()
    /// Where the landmark model's ready-to-map copy is kept (`models.landmark_cache`: `"auto"` is
    /// `${XDG_CACHE_HOME:-~/.cache}/facewatch`, `"off"` none, or a folder); nil: no copy.
    public var landmarkCache = LandmarkModelCache.standard()
    /// OpenCV face cascade (Debian `opencv-data`), used when `detectorKind` is `haar`.
    public var faceCascade = "/usr/share/opencv4/haarcascades/haarcascade_frontalface_alt.xml"
    /// How color frames become gray.
    public var gray = GrayConversion.luma
    /// Which face detector finds faces (`detector.kind`).
    public var detectorKind = DetectorKind.hog
    /// The HOG detector's settings (`detector.upsample`, `detector.adjust_threshold`, `detector.small_face_look`, `detector.threads`).
    public var hog = HOGSettings()
    /// The cascade's settings (`detector.scale_factor`, `min_neighbors`, `min_face`, `max_face`).
    public var detector = DetectorSettings(scaleFactor: 1.2, minNeighbors: 3, minSize: 80, maxSize: 0)
    /// How the cascade's boxes map to the landmark model's (follows `faceCascade`).
    public var calibration = BoxCalibration.haarFrontalFaceAlt
    public var tracking = TrackerSettings()
    public var expressions = ExpressionSettings()
    public var output = OutputOptions()
    /// Which event types are written (`"all"` or a comma-separated list).
    public var events = "all"
    /// Seconds between `stats` lines of the live pipeline.
    public var statsInterval = 1.0
    public var camera = CameraConfiguration()
    /// Unix socket serving the events (nil: none) and its file mode.
    public var socketPath: String?
    public var socketMode: UInt16 = 0o600
    public var http = HTTPConfiguration()
    public var mqtt = MQTTConfiguration()
    public var pointer = PointerConfiguration()
    /// Face descriptor distance below which two faces are the same person (dlib: 0.6).
    public var identityThreshold = 0.6
    /// The identity store file (nil: `${XDG_DATA_HOME:-~/.local/share}/facewatch/identities/identities.json`).
    public var identityStore: String?

    public init() {}

    /// The default `models.face_detector`: the model in `/usr/local/share/facewatch/models`
    /// (Scripts/setup-debian, an install by hand) when there is one there, else the one in
    /// `/usr/share/facewatch/models` (the Debian package, docs/packaging.md) when there is one
    /// there, else the first path (which the missing-model error then names).
    public static func installedFaceDetectorModel(
        fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> String {
        let candidates = ["/usr/local/share/facewatch/models/dlib_frontal_face_detector.dat",
                          "/usr/share/facewatch/models/dlib_frontal_face_detector.dat"]
        return candidates.first(where: fileExists) ?? candidates[0]
    }

    /// Switches the face cascade, with the box calibration that goes with it.
    public mutating func setFaceCascade(_ path: String) {
        faceCascade = path
        calibration = BoxCalibration.forCascade(at: path)
    }

    /// Reads a configuration file; settings it leaves out keep their defaults.
    public init(contentsOf path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigError(path: path, key: "", problem: "cannot read the file")
        }
        try self.init(json: data, path: path)
    }

    /// Parses configuration JSON; `path` names the source in error messages.
    public init(json data: Data, path: String) throws {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw ConfigError(path: path, key: "", problem: "not valid JSON")
        }
        var root = try JSONObjectReader(value, path: path, prefix: "")

        var models = try root.object("models")
        landmarkModel = try models.string("landmarks", default: landmarkModel)
        faceDetectorModel = try models.string("face_detector", default: faceDetectorModel)
        switch try models.string("landmark_cache", default: "auto") {
        case "auto": landmarkCache = LandmarkModelCache.standard()
        case "off": landmarkCache = nil
        case let folder where folder.hasPrefix("/"): landmarkCache = LandmarkModelCache(directory: folder)
        default: throw ConfigError(path: path, key: "models.landmark_cache", problem: "must be \"auto\", \"off\" or an absolute folder path")
        }
        setFaceCascade(try models.string("face_cascade", default: faceCascade))
        try models.finish()

        gray = GrayConversion(rawValue: try root.choice("gray", default: gray.rawValue,
                                                        from: GrayConversion.allCases.map(\.rawValue)))!

        var detection = try root.object("detector")
        detectorKind = DetectorKind(rawValue: try detection.choice("kind", default: detectorKind.rawValue,
                                                                   from: DetectorKind.allCases.map(\.rawValue)))!
        hog.upsample = try detection.int("upsample", default: hog.upsample, in: 0...3)
        hog.adjustThreshold = try detection.double("adjust_threshold", default: hog.adjustThreshold, in: -5...5)
        hog.smallFaceLook = try detection.bool("small_face_look", default: hog.smallFaceLook)
        hog.threads = try detection.int("threads", default: hog.threads, in: 1...2)
        detector.scaleFactor = try detection.double("scale_factor", default: detector.scaleFactor, in: 1.01...3)
        detector.minNeighbors = try detection.int("min_neighbors", default: detector.minNeighbors, in: 0...50)
        detector.minSize = try detection.int("min_face", default: detector.minSize, in: 0...10_000)
        detector.maxSize = try detection.int("max_face", default: detector.maxSize, in: 0...10_000)
        if let problem = detector.problem { throw ConfigError(path: path, key: "detector", problem: problem) }
        try detection.finish()

        var track = try root.object("tracking")
        tracking.maxFaces = try track.int("max_faces", default: tracking.maxFaces, in: 1...32)
        tracking.redetectInterval = try track.double("redetect_interval_s", default: tracking.redetectInterval, in: 0...60)
        tracking.emptyScanInterval = try track.double("empty_scan_interval_s", default: tracking.emptyScanInterval, in: 0...60)
        tracking.motionScanInterval = try track.double("motion_scan_interval_s", default: tracking.motionScanInterval, in: 0...60)
        tracking.verifyEvery = try track.int("verify_every_frames", default: tracking.verifyEvery, in: 1...1000)
        tracking.missesToLose = try track.int("misses_to_lose", default: tracking.missesToLose, in: 1...100)
        tracking.threads = try track.int("threads", default: tracking.threads, in: 1...2)
        tracking.reseedOverlap = try track.double("reseed_overlap", default: tracking.reseedOverlap, in: 0...1)
        try track.finish()

        var blink = try root.object("blink")
        var b = expressions.blink
        b.minDuration = try blink.double("min_duration_s", default: b.minDuration, in: 0...5)
        b.maxDuration = try blink.double("max_duration_s", default: b.maxDuration, in: 0.01...10)
        b.closeRatio = try blink.double("close_ratio", default: b.closeRatio, in: 0.05...0.99)
        b.reopenRatio = try blink.double("reopen_ratio", default: b.reopenRatio, in: 0.05...1.5)
        b.deepRatio = try blink.double("deep_ratio", default: b.deepRatio, in: 0.05...0.99)
        b.settleTime = try blink.double("settle_s", default: b.settleTime, in: 0...5)
        b.fallbackOpen = try blink.double("fallback_open_ear", default: b.fallbackOpen, in: 0.05...1)
        b.openWindow = try blink.double("open_window_s", default: b.openWindow, in: 0.5...120)
        b.winkMinDuration = try blink.double("wink_min_duration_s", default: b.winkMinDuration, in: 0...5)
        b.winkMaxDuration = try blink.double("wink_max_duration_s", default: b.winkMaxDuration, in: 0.01...10)
        b.maxYaw = try blink.double("max_yaw_deg", default: b.maxYaw, in: 0...90)
        b.maxYawChange = try blink.double("max_yaw_change_deg", default: b.maxYawChange, in: 0...180)
        b.turnDeepRatio = try blink.double("turn_deep_ratio", default: b.turnDeepRatio, in: 0...0.99)
        b.winkMaxYaw = try blink.double("wink_max_yaw_deg", default: b.winkMaxYaw, in: 0...90)
        b.jitterFactor = try blink.double("jitter_factor", default: b.jitterFactor, in: 0...20)
        b.jitterWindow = try blink.double("jitter_window_s", default: b.jitterWindow, in: 0.1...60)
        b.splitRise = try blink.double("split_rise", default: b.splitRise, in: 0.05...1)
        b.learned = try blink.bool("learned", default: b.learned)
        guard b.minDuration < b.maxDuration else {
            throw ConfigError(path: path, key: "blink.min_duration_s", problem: "must be less than blink.max_duration_s")
        }
        guard b.deepRatio <= b.closeRatio else {
            throw ConfigError(path: path, key: "blink.deep_ratio", problem: "must not be more than blink.close_ratio")
        }
        guard b.closeRatio < b.reopenRatio else {
            throw ConfigError(path: path, key: "blink.close_ratio", problem: "must be less than blink.reopen_ratio")
        }
        expressions.blink = b
        try blink.finish()

        expressions.smile = try Self.state(&root, "smile", expressions.smile, path: path)
        expressions.mouthOpen = try Self.state(&root, "mouth_open", expressions.mouthOpen, path: path)

        var out = try root.object("output")
        let nose = try out.bool("nose", default: output.nose)
        let frames = try out.bool("frames", default: output.frames)
        let landmarks = try out.bool("landmarks", default: output.landmarks)
        output = OutputOptions(nose: nose, frames: frames, landmarks: landmarks)
        events = try out.string("events", default: events)
        do {
            _ = try EventFilter(parsing: events)
        } catch {
            throw ConfigError(path: path, key: "output.events", problem: "\(error)")
        }
        statsInterval = try out.double("stats_interval_s", default: statsInterval, in: 0.1...3600)
        try out.finish()

        var cam = try root.object("camera")
        camera.device = try cam.string("device", default: camera.device)
        camera.width = try cam.int("width", default: camera.width, in: CameraConfiguration.sides)
        camera.height = try cam.int("height", default: camera.height, in: CameraConfiguration.sides)
        camera.fps = try cam.double("fps", default: camera.fps, in: CameraConfiguration.rates)
        camera.format = try cam.choice("format", default: camera.format, from: CameraConfiguration.formats)
        camera.buffers = try cam.int("buffers", default: camera.buffers, in: CameraConfiguration.bufferCounts)
        camera.pollTimeout = try cam.double("poll_timeout_s", default: camera.pollTimeout, in: CameraConfiguration.pollTimeouts)
        camera.reconnectFor = try cam.double("reconnect_for_s", default: camera.reconnectFor, in: CameraConfiguration.reconnectTimes)
        try cam.finish()

        var sock = try root.object("socket")
        socketPath = try sock.optionalString("path")
        let mode = try sock.string("mode", default: "0600")
        guard let parsed = UInt16(mode, radix: 8), parsed <= 0o777 else {
            throw ConfigError(path: path, key: "socket.mode", problem: "\"\(mode)\" is not octal permissions such as \"0600\"")
        }
        socketMode = parsed
        try sock.finish()

        var web = try root.object("http")
        http.bind = try web.string("bind", default: http.bind)
        http.token = try web.optionalString("token")
        if http.token?.isEmpty == true { throw ConfigError(path: path, key: "http.token", problem: "must not be empty (null: no token)") }
        http.video = try web.bool("video", default: http.video)
        http.videoFPS = try web.double("video_fps", default: http.videoFPS, in: 0.5...60)
        try web.finish()

        var broker = try root.object("mqtt")
        mqtt.url = try broker.optionalString("url")
        mqtt.qos = try broker.int("qos", default: mqtt.qos, in: 0...2)
        mqtt.retain = try broker.bool("retain", default: mqtt.retain)
        mqtt.queue = try broker.int("queue", default: mqtt.queue, in: 1...1_000_000)
        mqtt.reconnectMax = try broker.double("reconnect_max_s", default: mqtt.reconnectMax, in: 1...3600)
        try broker.finish()

        var mouse = try root.object("pointer")
        pointer.gain = try mouse.double("gain", default: pointer.gain, in: 0.1...100)
        pointer.deadZone = try mouse.double("dead_zone", default: pointer.deadZone, in: 0...0.5)
        pointer.calibrate = try mouse.double("calibrate_s", default: pointer.calibrate, in: 0...60)
        pointer.minCutoff = try mouse.double("min_cutoff_hz", default: pointer.minCutoff, in: 0.001...100)
        pointer.beta = try mouse.double("beta", default: pointer.beta, in: 0...1000)
        pointer.click = PointerConfiguration.Click(rawValue: try mouse.choice(
            "click", default: pointer.click.rawValue, from: PointerConfiguration.Click.allCases.map(\.rawValue)))!
        pointer.longBlink = try mouse.double("long_blink_s", default: pointer.longBlink, in: 0...10)
        pointer.mirror = try mouse.bool("mirror", default: pointer.mirror)
        try mouse.finish()

        var identity = try root.object("identity")
        identityThreshold = try identity.double("threshold", default: identityThreshold, in: 0.01...2)
        identityStore = try identity.optionalString("store")
        if identityStore?.isEmpty == true {
            throw ConfigError(path: path, key: "identity.store", problem: "must be a file path or null")
        }
        try identity.finish()
        try root.finish()
    }

    private static func state(_ root: inout JSONObjectReader, _ key: String, _ defaults: StateSettings,
                              path: String) throws -> StateSettings {
        var reader = try root.object(key)
        var s = defaults
        s.startDelta = try reader.double("start_delta", default: s.startDelta, in: 0...10)
        s.endDelta = try reader.double("end_delta", default: s.endDelta, in: 0...10)
        s.minOnDuration = try reader.double("min_on_s", default: s.minOnDuration, in: 0...10)
        s.minOffDuration = try reader.double("min_off_s", default: s.minOffDuration, in: 0...10)
        s.fallbackBaseline = try reader.double("fallback_baseline", default: s.fallbackBaseline, in: -10...10)
        s.maxYaw = try reader.double("max_yaw_deg", default: s.maxYaw, in: 0...90)
        guard s.endDelta < s.startDelta else {
            throw ConfigError(path: path, key: "\(key).end_delta", problem: "must be less than \(key).start_delta")
        }
        try reader.finish()
        return s
    }
}
