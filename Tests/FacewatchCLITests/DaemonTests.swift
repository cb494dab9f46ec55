import Foundation
import Imaging
import Recordings
import XCTest

/// The `facewatch` binary as users run it: `run` on an emulated camera stopped by a signal or by
/// its reader going away, and clear errors with non-zero exits.
final class DaemonTests: XCTestCase {
    var folder: URL!

    var binary: URL {
        // The test bundle sits in the build folder next to the executable.
        var url = Bundle(for: DaemonTests.self).bundleURL
        while url.pathExtension == "xctest" || url.lastPathComponent == "Contents" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("facewatch")
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-cli-\(UUID().uuidString)")
        let face = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/landmarks/hog/astronaut_w120.jpg")
        let jpeg = try Data(contentsOf: face)
        let writer = try RecordingWriter(directory: folder.appendingPathComponent("rec").path,
                                         info: RecordingInfo(width: 640, height: 480, fps: 30, source: "DaemonTests"))
        for n in 0..<300 { try writer.append(jpeg: jpeg, t: Double(n) / 30) }
        try writer.finish()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func start(_ arguments: [String]) throws -> (Process, Pipe, Pipe) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return (process, out, err)
    }

    func wait(_ process: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return !process.isRunning
    }

    func testSigintAndSigtermStopCleanlyAndFlush() throws {
        for signal in [SIGINT, SIGTERM] {
            let (process, out, _) = try start(["run", "--device", "emulated:\(folder.path)/rec", "--no-nose"])
            Thread.sleep(forTimeInterval: 2.5)
            kill(process.processIdentifier, signal)
            XCTAssertTrue(wait(process, seconds: 5), "stops within the poll timeout")
            XCTAssertEqual(process.terminationStatus, 0, "signal \(signal)")
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let lines = text.split(separator: "\n")
            for line in lines { XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), String(line)) }
            XCTAssertTrue(lines.first?.hasPrefix(#"{"type":"face_found""#) == true, text)
            XCTAssertTrue(lines.contains { $0.hasPrefix(#"{"type":"face_lost""#) }, "tracks are closed on the way out")
            XCTAssertTrue(lines.last?.hasPrefix(#"{"type":"stats""#) == true, "a last stats line")
        }
    }

    func testAReaderClosingThePipeEndsTheDaemonQuietly() throws {
        let (process, out, err) = try start(["run", "--device", "emulated:\(folder.path)/rec"])
        let reader = out.fileHandleForReading
        var received = Data()
        while received.filter({ $0 == 0x0A }).count < 3 { received += reader.availableData }
        try reader.close()  // like `facewatch run | head -3`
        XCTAssertTrue(wait(process, seconds: 5))
        XCTAssertEqual(process.terminationStatus, 0)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertFalse(errors.contains("Error"), errors)
    }

    func testAMissingModelIsOneClearLineAndANonZeroExit() throws {
        let (process, _, err) = try start(["replay", "\(folder.path)/rec", "--model", "/nonexistent/model.dat"])
        XCTAssertTrue(wait(process, seconds: 10))
        XCTAssertNotEqual(process.terminationStatus, 0)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("/nonexistent/model.dat") && text.contains("apt-get install libdlib-data"), text)
    }

    /// Runs `facewatch bench ARGUMENTS --json` in `directory` (the tests' working directory when
    /// nil) and returns its JSON object, asserting a clean exit.
    private func benchJSON(_ arguments: [String], in directory: URL? = nil) throws -> [String: Any] {
        let process = Process()
        process.executableURL = binary
        process.arguments = ["bench"] + arguments + ["--json"]
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any], String(decoding: data, as: UTF8.self))
    }

    /// `bench` run from another directory finds the bundled recordings next to the executable
    /// and reports the fit on one repeated frame and on varied frames separately.
    func testBenchWorksOutsideTheRepository() throws {
        let json = try benchJSON(["--rounds", "1", "--iterations", "20"], in: URL(fileURLWithPath: NSTemporaryDirectory()))
        XCTAssertTrue((json["recording"] as? String)?.hasSuffix("Recordings/blinks-slow-move") == true, "\(json["recording"] ?? "")")
        let micro = try XCTUnwrap(json["micro_ms"] as? [String: Any])
        XCTAssertNotNil(micro["landmark fit, repeated"])
        XCTAssertNotNil(micro["landmark fit, varied"])
        // The bundled 1280×720 clip, also scaled to 640×480 and 1920×1080: the same events at
        // every size, most frames decoded only around the face, larger frames decoded slower.
        let sizes = try XCTUnwrap(json["frame_sizes"] as? [[String: Any]])
        XCTAssertEqual(sizes.map { $0["width"] as? Int }, [640, 1280, 1920])
        XCTAssertEqual(sizes.map { $0["height"] as? Int }, [480, 720, 1080])
        XCTAssertEqual(Set(sizes.compactMap { $0["events"] as? String }), ["2 blink, 2 smile"])
        for size in sizes {
            XCTAssertGreaterThan(size["partly_decoded"] as? Double ?? 0, 0.5, "\(size)")
            XCTAssertGreaterThan(size["replay_fps"] as? Double ?? 0, 0)
        }
        let decode = sizes.map { (($0["stages_ms"] as? [String: Any])?["decode"] as? [String: Any])?["mean"] as? Double ?? 0 }
        XCTAssertLessThan(decode[0], decode[2], "a 1080p frame takes longer to decode than a 640×480 one")
        // With the model installed, the descriptor's fixtures are found from there too.
        if FileManager.default.fileExists(atPath: "/usr/local/share/facewatch/models/dlib_face_recognition_resnet_model_v1.dat") {
            XCTAssertNotNil(micro["face descriptor"], "\(micro.keys.sorted())")
        }
    }

    /// A recording path that JSON must escape stays valid JSON in `bench --json`.
    func testBenchJSONEscapesTheRecordingPath() throws {
        let odd = folder.appendingPathComponent(#"a "quoted" \ folder"#)
        try FileManager.default.copyItem(at: recordings.appendingPathComponent("hopper-blinks"), to: odd)
        let json = try benchJSON([odd.path, "--rounds", "1", "--iterations", "2"])
        XCTAssertEqual(json["recording"] as? String, odd.path)
    }

    func testABadConfigNamesTheKey() throws {
        let config = folder.appendingPathComponent("bad.json")
        try Data(#"{"detector": {"min_face": "big"}}"#.utf8).write(to: config)
        let (process, _, err) = try start(["replay", "\(folder.path)/rec", "--config", config.path])
        XCTAssertTrue(wait(process, seconds: 10))
        XCTAssertNotEqual(process.terminationStatus, 0)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("detector.min_face"), text)
    }

    func testNoCameraIsAClearError() throws {
        let (process, _, err) = try start(["run", "--device", "/dev/video-none"])
        XCTAssertTrue(wait(process, seconds: 10))
        XCTAssertNotEqual(process.terminationStatus, 0)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.contains("/dev/video-none"), text)
    }

    private var recordings: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Recordings")
    }

    private func exitStatus(_ arguments: [String]) throws -> (Int32, String) {
        let (process, out, _) = try start(arguments)
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    func testCheckExitStatusIsWhatAKYCScriptBranchesOn() throws {
        // A person answering the cues (the bundled recording played by `check-eval` as its person
        // answering the cues of seed 4, saved) passes; the same recording replayed as it is does not.
        let saved = folder.appendingPathComponent("genuine")
        let (made, table) = try exitStatus(["check-eval", "--genuine", recordings.appendingPathComponent("blinks-slow-move").path,
                                            "--challenges", "blink:2", "--genuine-seeds", "4", "--save-genuine", saved.path])
        XCTAssertEqual(made, 0, table)
        let genuine = saved.appendingPathComponent("blinks-slow-move-blinkx2-4").path
        let (pass, passLines) = try exitStatus(["check", "--replay", genuine, "--challenge", "blink:2", "--seed", "4"])
        XCTAssertEqual(pass, 0, passLines)
        XCTAssertTrue(passLines.contains(#""type":"cue""#), passLines)
        XCTAssertTrue(passLines.contains(#""type":"verdict""#) && passLines.contains(#""pass":true"#), passLines)
        let (again, againLines) = try exitStatus(["check", "--replay", genuine, "--challenge", "blink:2", "--seed", "4"])
        XCTAssertEqual(again, 0)
        XCTAssertEqual(againLines, passLines, "the same recording and seed give the same lines")
        let (replayed, replayedLines) = try exitStatus(["check", "--replay", recordings.appendingPathComponent("blinks-slow-move").path,
                                                        "--challenge", "blink:2", "--seed", "4"])
        XCTAssertEqual(replayed, 1, replayedLines)
        // A photo held to the camera: no blink on the first cue, and the 4.5 s recording ends.
        let (fail, failLines) = try exitStatus(["check", "--replay", recordings.appendingPathComponent("still-photo").path,
                                                "--challenge", "blink", "--seed", "1"])
        XCTAssertEqual(fail, 1)
        XCTAssertTrue(failLines.contains(#""pass":false,"reason":"stream_ended""#) && failLines.contains(#""missed":1"#), failLines)
        let (error, _) = try exitStatus(["check", "--replay", "/nonexistent/recording", "--challenge", "blink"])
        XCTAssertEqual(error, 2)
        let (badChallenge, _) = try exitStatus(["check", "--replay", recordings.appendingPathComponent("still-photo").path,
                                                "--challenge", "wave"])
        XCTAssertEqual(badChallenge, 2)
    }

    func testEvalGatesOnMinF1AndSkipsFilesThatAreNotRecordings() throws {
        let still = recordings.appendingPathComponent("still-photo").path
        let readme = recordings.appendingPathComponent("README.md").path
        let (ok, table) = try exitStatus(["eval", still, readme, "--types", "blink,smile", "--min-f1", "0.9"])
        XCTAssertEqual(ok, 0, table)
        XCTAssertTrue(table.contains("still-photo"), table)
        let (failed, _) = try exitStatus(["eval", recordings.appendingPathComponent("half-blinks-winks").path,
                                          "--types", "wink", "--min-f1", "0.9"])
        XCTAssertEqual(failed, 1, "one of the two winks there is missed (F1 0.667), so a 0.9 wink gate fails")
    }

    func testCheckOnALiveCameraPassesWhenThePersonBlinksOnCue() throws {
        // The emulated camera plays a recording in real time through the live pipeline: the
        // bundled clip as its person answering the cues of seed 1 passes, the clip itself fails.
        let saved = folder.appendingPathComponent("genuine")
        let (made, table) = try exitStatus(["check-eval", "--genuine", recordings.appendingPathComponent("blinks-slow-move").path,
                                            "--challenges", "blink", "--genuine-seeds", "1", "--save-genuine", saved.path])
        XCTAssertEqual(made, 0, table)
        let camera = "emulated:" + saved.appendingPathComponent("blinks-slow-move-blink-1").path
        let (status, lines) = try exitStatus(["check", "--device", camera, "--challenge", "blink", "--seed", "1"])
        XCTAssertEqual(status, 0, lines)
        XCTAssertTrue(lines.hasPrefix(#"{"type":"prompt""#), lines)
        XCTAssertTrue(lines.contains(#"{"type":"cue""#), lines)
        let (replayed, replayedLines) = try exitStatus(["check", "--device", "emulated:" + recordings.appendingPathComponent("blinks-slow-move").path,
                                                        "--challenge", "blink", "--seed", "1"])
        XCTAssertEqual(replayed, 1, replayedLines)
    }

    func testTheDaemonServesEventsOnAPrivateSocket() throws {
        let path = folder.appendingPathComponent("events.sock").path
        let (process, _, _) = try start(["run", "--device", "emulated:\(folder.path)/rec", "--socket", path, "--no-nose"])
        defer { if process.isRunning { kill(process.processIdentifier, SIGTERM); _ = wait(process, seconds: 5) } }
        var info = stat()
        let deadline = Date().addingTimeInterval(5)
        while lstat(path, &info) != 0 && Date() < deadline { usleep(20_000) }
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(connected, 0)
        var received = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 4096)
        let until = Date().addingTimeInterval(4)
        while !String(decoding: received, as: UTF8.self).contains(#""type":"stats""#) && Date() < until {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { break }
            received += chunk[0..<n]
        }
        XCTAssertTrue(String(decoding: received, as: UTF8.self).contains(#""type":"stats""#), "a client gets the stream")
        kill(process.processIdentifier, SIGTERM)
        XCTAssertTrue(wait(process, seconds: 5))
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path), "the socket file is removed on the way out")
    }

    func testRunCanRecordWhatItSees() throws {
        let out = folder.appendingPathComponent("recorded").path
        let (process, stdout, _) = try start(["run", "--device", "emulated:\(folder.path)/rec", "--record", out, "--events", "face_found"])
        // Stop once the recording holds more than 20 frames (however long the model load took).
        let index = out + "/frames.jsonl"
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline,
              (FileManager.default.contents(atPath: index).map { $0.filter { $0 == 0x0A }.count } ?? 0) <= 25 {
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGINT)
        XCTAssertTrue(wait(process, seconds: 5))
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).contains("face_found"))
        let recording = try Recording(directory: out)
        XCTAssertGreaterThan(recording.frames.count, 20)
        XCTAssertEqual(recording.info.frameCount, recording.frames.count)
        XCTAssertTrue(recording.problems.isEmpty, "\(recording.problems)")
        // MJPEG is stored as the camera sent it: the source recording's bytes.
        let source = try Recording(directory: "\(folder.path)/rec")
        XCTAssertEqual(try recording.jpeg(0), try source.jpeg(0))
    }
}
