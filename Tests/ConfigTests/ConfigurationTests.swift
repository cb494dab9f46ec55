import Config
import Detection
import Foundation
import Landmarks
import XCTest

final class ConfigurationTests: XCTestCase {
    private let repoConfig = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("config.json").path

    private func parse(_ json: String) throws -> Configuration {
        try Configuration(json: Data(json.utf8), path: "test.json")
    }

    private func assertRejected(_ json: String, key: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try parse(json), file: file, line: line) { error in
            let error = error as? ConfigError
            XCTAssertEqual(error?.key, key, "\(String(describing: error))", file: file, line: line)
            XCTAssertTrue(error?.description.hasPrefix("test.json: \(key)") == true, file: file, line: line)
        }
    }

    func testTheRepositoryConfigListsTheDefaults() throws {
        XCTAssertEqual(try Configuration(contentsOf: repoConfig), Configuration())
    }

    func testEmptyObjectGivesDefaults() throws {
        XCTAssertEqual(try parse("{}"), Configuration())
    }

    func testValuesAreRead() throws {
        let config = try parse("""
            {"models": {"face_cascade": "/usr/share/opencv4/lbpcascades/lbpcascade_frontalface_improved.xml"},
             "gray": "rgb-mean", "detector": {"min_face": 60, "scale_factor": 1.1},
             "tracking": {"max_faces": 3, "reseed_overlap": 0.4}, "blink": {"max_duration_s": 0.4, "deep_ratio": 0.5, "settle_s": 0.3, "split_rise": 1,
                       "learned": false},
             "output": {"nose": false, "landmarks": true, "events": "blink,smile"}}
            """)
        XCTAssertEqual(config.gray, .rgbMean)
        XCTAssertEqual(config.detector.minSize, 60)
        XCTAssertEqual(config.detector.scaleFactor, 1.1)
        XCTAssertEqual(config.tracking.maxFaces, 3)
        XCTAssertEqual(config.tracking.reseedOverlap, 0.4)
        XCTAssertEqual(config.calibration, .lbpFrontalFaceImproved)
        XCTAssertEqual(config.expressions.blink.maxDuration, 0.4)
        XCTAssertEqual(config.expressions.blink.deepRatio, 0.5)
        XCTAssertEqual(config.expressions.blink.settleTime, 0.3)
        XCTAssertEqual(config.expressions.blink.splitRise, 1)
        XCTAssertFalse(config.expressions.blink.learned)
        XCTAssertTrue(Configuration().expressions.blink.learned, "the learned decision is on by default")
        XCTAssertFalse(config.output.nose)
        XCTAssertTrue(config.output.frames, "landmarks imply frame lines")
        XCTAssertEqual(config.events, "blink,smile")
    }

    func testDetectorChoiceAndScanSchedule() throws {
        let defaults = Configuration()
        XCTAssertEqual(defaults.detectorKind, .hog)
        XCTAssertEqual(defaults.hog, HOGSettings(upsample: 0, adjustThreshold: 0, smallFaceLook: true))
        XCTAssertEqual(defaults.tracking.maxFaces, 4)
        XCTAssertEqual(defaults.faceDetectorModel, Configuration.installedFaceDetectorModel())
        let local = "/usr/local/share/facewatch/models/dlib_frontal_face_detector.dat"
        let packaged = "/usr/share/facewatch/models/dlib_frontal_face_detector.dat"
        XCTAssertEqual(Configuration.installedFaceDetectorModel(fileExists: { _ in false }), local, "none installed: the error names the first")
        XCTAssertEqual(Configuration.installedFaceDetectorModel(fileExists: { $0 == packaged }), packaged, "the Debian package's")
        XCTAssertEqual(Configuration.installedFaceDetectorModel(fileExists: { _ in true }), local, "a local install comes first")
        let config = try parse("""
            {"models": {"face_detector": "/tmp/hog.dat"},
             "detector": {"kind": "haar", "upsample": 1, "adjust_threshold": -0.5, "small_face_look": false},
             "tracking": {"empty_scan_interval_s": 2, "motion_scan_interval_s": 0.1}}
            """)
        XCTAssertEqual(config.detectorKind, .haar)
        XCTAssertEqual(config.faceDetectorModel, "/tmp/hog.dat")
        XCTAssertEqual(config.hog, HOGSettings(upsample: 1, adjustThreshold: -0.5, smallFaceLook: false))
        XCTAssertEqual(config.tracking.emptyScanInterval, 2)
        XCTAssertEqual(config.tracking.motionScanInterval, 0.1)
        assertRejected(#"{"detector": {"kind": "cnn"}}"#, key: "detector.kind")
        assertRejected(#"{"detector": {"upsample": 4}}"#, key: "detector.upsample")
        assertRejected(#"{"detector": {"small_face_look": 1}}"#, key: "detector.small_face_look")
        assertRejected(#"{"tracking": {"empty_scan_interval_s": -1}}"#, key: "tracking.empty_scan_interval_s")
        assertRejected(#"{"tracking": {"reseed_overlap": 1.5}}"#, key: "tracking.reseed_overlap")
        XCTAssertEqual(defaults.expressions.blink.maxYaw, 45)
        XCTAssertEqual(defaults.expressions.smile.maxYaw, 50)
        XCTAssertEqual(defaults.expressions.mouthOpen.maxYaw, 50)
    }

    func testCameraSocketAndStatsSettings() throws {
        let config = try parse("""
            {"camera": {"device": "/dev/video2", "width": 1280, "height": 720, "fps": 15, "reconnect_for_s": 5},
             "socket": {"path": "/run/facewatch/events.sock", "mode": "0660"}, "output": {"stats_interval_s": 2}}
            """)
        XCTAssertEqual(config.camera.device, "/dev/video2")
        XCTAssertEqual(config.camera.width, 1280)
        XCTAssertEqual(config.camera.height, 720)
        XCTAssertEqual(config.camera.fps, 15)
        XCTAssertEqual(config.camera.buffers, 4)
        XCTAssertEqual(config.camera.reconnectFor, 5)
        XCTAssertEqual(config.socketPath, "/run/facewatch/events.sock")
        XCTAssertEqual(config.socketMode, 0o660)
        XCTAssertEqual(config.statsInterval, 2)
        XCTAssertNil(Configuration().socketPath)
        assertRejected(#"{"socket": {"mode": "rw-rw----"}}"#, key: "socket.mode")
        assertRejected(#"{"camera": {"fps": 0}}"#, key: "camera.fps")
        assertRejected(#"{"camera": {"size": "640x480"}}"#, key: "camera.size")
    }

    func testCameraFormatIsAutoOrANamedFormat() throws {
        XCTAssertEqual(Configuration().camera.format, "auto")
        for format in ["mjpg", "yuyv", "grey", "auto"] {
            XCTAssertEqual(try parse(#"{"camera": {"format": "\#(format)"}}"#).camera.format, format)
        }
        assertRejected(#"{"camera": {"format": "MJPEG"}}"#, key: "camera.format")
        assertRejected(#"{"camera": {"format": 1}}"#, key: "camera.format")
    }

    func testTheLandmarkModelsCopyIsInTheXDGCacheOffOrAFolder() throws {
        XCTAssertEqual(Configuration().landmarkCache, LandmarkModelCache.standard())
        XCTAssertEqual(try parse(#"{"models": {"landmark_cache": "auto"}}"#).landmarkCache, LandmarkModelCache.standard())
        XCTAssertNil(try parse(#"{"models": {"landmark_cache": "off"}}"#).landmarkCache)
        XCTAssertEqual(try parse(#"{"models": {"landmark_cache": "/var/cache/facewatch"}}"#).landmarkCache?.directory,
                       "/var/cache/facewatch")
        assertRejected(#"{"models": {"landmark_cache": "cache"}}"#, key: "models.landmark_cache")
        assertRejected(#"{"models": {"landmark_cache": false}}"#, key: "models.landmark_cache")
    }

    func testHTTPMQTTAndPointerSettings() throws {
        let config = try parse("""
            {"http": {"bind": "0.0.0.0:9000", "token": "s3cret", "video": true, "video_fps": 5},
             "mqtt": {"url": "mqtt://127.0.0.1:1884/facewatch/cam1", "qos": 2, "retain": true, "queue": 50, "reconnect_max_s": 4},
             "pointer": {"gain": 6, "dead_zone": 0.02, "calibrate_s": 2, "min_cutoff_hz": 0.5, "beta": 1,
                         "click": "wink", "long_blink_s": 0.4, "mirror": false}}
            """)
        XCTAssertEqual(config.http.bind, "0.0.0.0:9000")
        XCTAssertEqual(config.http.token, "s3cret")
        XCTAssertTrue(config.http.video)
        XCTAssertEqual(config.http.videoFPS, 5)
        XCTAssertEqual(config.mqtt.url, "mqtt://127.0.0.1:1884/facewatch/cam1")
        XCTAssertEqual(config.mqtt.qos, 2)
        XCTAssertTrue(config.mqtt.retain)
        XCTAssertEqual(config.mqtt.queue, 50)
        XCTAssertEqual(config.mqtt.reconnectMax, 4)
        XCTAssertEqual(config.pointer.gain, 6)
        XCTAssertEqual(config.pointer.deadZone, 0.02)
        XCTAssertEqual(config.pointer.calibrate, 2)
        XCTAssertEqual(config.pointer.minCutoff, 0.5)
        XCTAssertEqual(config.pointer.beta, 1)
        XCTAssertEqual(config.pointer.click, .wink)
        XCTAssertEqual(config.pointer.longBlink, 0.4)
        XCTAssertFalse(config.pointer.mirror)
        let defaults = Configuration()
        XCTAssertEqual(defaults.http.bind, "127.0.0.1:8080")
        XCTAssertNil(defaults.http.token)
        XCTAssertFalse(defaults.http.video, "video is off unless asked for")
        XCTAssertNil(defaults.mqtt.url)
        assertRejected(#"{"http": {"token": ""}}"#, key: "http.token")
        assertRejected(#"{"http": {"video": "yes"}}"#, key: "http.video")
        assertRejected(#"{"mqtt": {"qos": 3}}"#, key: "mqtt.qos")
        assertRejected(#"{"mqtt": {"queue": 0}}"#, key: "mqtt.queue")
        assertRejected(#"{"pointer": {"click": "double_blink"}}"#, key: "pointer.click")
        assertRejected(#"{"pointer": {"speed": 1}}"#, key: "pointer.speed")
    }

    func testIdentitySettings() throws {
        let config = try parse(#"{"identity": {"threshold": 0.5, "store": "/var/lib/facewatch/ids.json"}}"#)
        XCTAssertEqual(config.identityThreshold, 0.5)
        XCTAssertEqual(config.identityStore, "/var/lib/facewatch/ids.json")
        XCTAssertEqual(Configuration().identityThreshold, 0.6)
        XCTAssertNil(Configuration().identityStore)
        assertRejected(#"{"identity": {"threshold": 0}}"#, key: "identity.threshold")
        assertRejected(#"{"identity": {"store": ""}}"#, key: "identity.store")
        assertRejected(#"{"identity": {"limit": 1}}"#, key: "identity.limit")
    }

    func testUnknownKeysAreRejectedByName() {
        assertRejected(#"{"detector": {"scalefactor": 1.2}}"#, key: "detector.scalefactor")
        assertRejected(#"{"colour": "blue"}"#, key: "colour")
    }

    func testBadValuesAreRejectedByName() {
        assertRejected(#"{"detector": {"scale_factor": 1.0}}"#, key: "detector.scale_factor")
        assertRejected(#"{"detector": {"min_neighbors": 2.5}}"#, key: "detector.min_neighbors")
        assertRejected(#"{"tracking": {"max_faces": "one"}}"#, key: "tracking.max_faces")
        assertRejected(#"{"output": {"nose": 1}}"#, key: "output.nose")
        assertRejected(#"{"gray": "green"}"#, key: "gray")
        assertRejected(#"{"blink": {"min_duration_s": 0.9}}"#, key: "blink.min_duration_s")
        assertRejected(#"{"blink": {"deep_ratio": 0.8}}"#, key: "blink.deep_ratio")
        assertRejected(#"{"blink": {"split_rise": 0}}"#, key: "blink.split_rise")
        assertRejected(#"{"smile": {"end_delta": 0.5}}"#, key: "smile.end_delta")
        assertRejected(#"{"detector": {"min_face": 100, "max_face": 50}}"#, key: "detector")
        assertRejected(#"{"models": []}"#, key: "models")
    }

    func testAnEventListThatWouldWriteNothingIsRejected() {
        assertRejected(#"{"output": {"events": ""}}"#, key: "output.events")
        assertRejected(#"{"output": {"events": " , "}}"#, key: "output.events")
        assertRejected(#"{"output": {"events": "blink,sneeze"}}"#, key: "output.events")
    }

    func testNotJSONAndMissingFilesAreClearErrors() {
        XCTAssertThrowsError(try parse("{ nope")) { error in
            XCTAssertEqual((error as? ConfigError)?.description, "test.json: not valid JSON")
        }
        XCTAssertThrowsError(try Configuration(contentsOf: "/nonexistent/config.json")) { error in
            XCTAssertEqual((error as? ConfigError)?.description, "/nonexistent/config.json: cannot read the file")
        }
    }
}
