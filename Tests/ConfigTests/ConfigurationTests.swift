import Config
import Detection
import Foundation
import Pipeline
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
             "tracking": {"max_faces": 3}, "blink": {"max_duration_s": 0.4},
             "output": {"nose": false, "landmarks": true, "events": "blink,smile"}}
            """)
        XCTAssertEqual(config.gray, .rgbMean)
        XCTAssertEqual(config.detector.minSize, 60)
        XCTAssertEqual(config.detector.scaleFactor, 1.1)
        XCTAssertEqual(config.tracking.maxFaces, 3)
        XCTAssertEqual(config.tracking.calibration, .lbpFrontalFaceImproved)
        XCTAssertEqual(config.expressions.blink.maxDuration, 0.4)
        XCTAssertFalse(config.output.nose)
        XCTAssertTrue(config.output.frames, "landmarks imply frame lines")
        XCTAssertEqual(config.events, "blink,smile")
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
        assertRejected(#"{"blink": {"min_duration_s": 0.6}}"#, key: "blink.min_duration_s")
        assertRejected(#"{"smile": {"end_delta": 0.5}}"#, key: "smile.end_delta")
        assertRejected(#"{"detector": {"min_face": 100, "max_face": 50}}"#, key: "detector")
        assertRejected(#"{"models": []}"#, key: "models")
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
