import Foundation
import XCTest

/// The identity commands as users run them: enrol from a recording, verify photos and
/// recordings, `check --identity` on the bundled recordings (the enrolled person passes, another
/// person fails, a face swapped mid-check fails), exit codes and the missing-model line.
final class IdentityCommandTests: XCTestCase {
    private var folder: URL!
    private let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private var binary: URL {
        var url = Bundle(for: IdentityCommandTests.self).bundleURL
        while url.pathExtension == "xctest" || url.lastPathComponent == "Contents" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("facewatch")
    }

    private var modelInstalled: Bool {
        FileManager.default.fileExists(atPath: "/usr/local/share/facewatch/models/dlib_face_recognition_resnet_model_v1.dat")
            || FileManager.default.fileExists(atPath: NSHomeDirectory() + "/.local/share/facewatch/models/dlib_face_recognition_resnet_model_v1.dat")
    }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-identity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let config = #"{"identity": {"store": "\#(folder.path)/ids/identities.json"}}"#
        try Data(config.utf8).write(to: folder.appendingPathComponent("config.json"))
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Runs facewatch; returns (exit status, stdout, stderr).
    @discardableResult
    private func run(_ arguments: [String], environment: [String: String]? = nil) throws -> (Int32, String, String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile(), error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }

    private var config: [String] { ["--config", folder.appendingPathComponent("config.json").path] }

    /// A recording of Grace Hopper answering the cues of `check --challenge blink --seed 1`, made
    /// by `check-eval --save-genuine` from the bundled `hopper-blinks` (a replay of that recording
    /// itself does not answer the cues).
    private func genuineHopper(environment: [String: String]? = nil) throws -> String {
        let saved = folder.appendingPathComponent("genuine")
        let (status, output, error) = try run(["check-eval", "--genuine", "Recordings/hopper-blinks", "--challenges", "blink",
                                               "--genuine-seeds", "1", "--save-genuine", saved.path] + config, environment: environment)
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(output.contains("0/1 0.0%"), "the genuine presentation passed: \(output)")
        return saved.appendingPathComponent("hopper-blinks-blink-1").path
    }

    private func requireModel() throws {
        guard modelInstalled else {
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("CI=true but the descriptor model is not installed") }
            throw XCTSkip("descriptor model not installed; run Scripts/setup-models")
        }
    }

    func testWithoutTheModelEveryIdentityCommandIsOneLineNamingTheScriptAndExit2() throws {
        let env = ["FACEWATCH_MODELS": folder.appendingPathComponent("none").path, "HOME": folder.path, "PATH": "/usr/bin:/bin"]
        for arguments in [["check", "--identity", "alice", "--replay", "Recordings/hopper-blinks", "--challenge", "blink"],
                          ["verify", "alice", "Tests/Fixtures/identity/photos/hopper.jpg"],
                          ["enroll", "alice", "Tests/Fixtures/identity/photos/hopper.jpg"]] {
            let (status, _, error) = try run(arguments + config, environment: env)
            XCTAssertEqual(status, 2, arguments.joined(separator: " "))
            let lines = error.split(separator: "\n").filter { !$0.contains(" info ") }
            XCTAssertEqual(lines.count, 1, error)
            XCTAssertTrue(lines.first?.contains("Scripts/setup-models") == true, error)
        }
        // The rest works as before without the model.
        let genuine = try genuineHopper(environment: env)
        let (status, output, _) = try run(["check", "--replay", genuine, "--challenge", "blink", "--seed", "1"] + config, environment: env)
        XCTAssertEqual(status, 0, output)
    }

    func testEnrollVerifyListRemove() throws {
        try requireModel()
        var (status, output, error) = try run(["enroll", "hopper", "--replay", "Recordings/hopper-blinks", "--frames", "3"] + config)
        XCTAssertEqual(status, 0, error)
        XCTAssertTrue(output.contains(#""descriptors":3"#), output)
        // The same face under another name is refused, and allowed with --force.
        (status, _, error) = try run(["enroll", "grace", "--replay", "Recordings/hopper-blinks", "--frames", "2"] + config)
        XCTAssertEqual(status, 1, error)
        XCTAssertTrue(error.contains("already enrolled as \"hopper\""), error)
        (status, _, _) = try run(["enroll", "grace", "--replay", "Recordings/hopper-blinks", "--frames", "2", "--force"] + config)
        XCTAssertEqual(status, 0)
        (status, output, _) = try run(["identities", "list"] + config)
        XCTAssertEqual(status, 0)
        XCTAssertEqual(output.split(separator: "\n").count, 2, output)
        // verify: the same person's recording matches, another person's does not.
        (status, output, _) = try run(["verify", "hopper", "--replay", "Recordings/smile-mouth"] + config)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains(#""type":"verify""#) && output.contains(#""match":true"#), output)
        (status, output, _) = try run(["verify", "hopper", "--replay", "Recordings/blinks-slow-move"] + config)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains(#""match":false"#), output)
        (status, _, error) = try run(["verify", "nobody", "--replay", "Recordings/blinks-slow-move"] + config)
        XCTAssertEqual(status, 2, error)
        (status, _, _) = try run(["identities", "remove", "grace"] + config)
        XCTAssertEqual(status, 0)
        (status, _, _) = try run(["identities", "remove", "grace"] + config)
        XCTAssertEqual(status, 1)
        var info = stat()
        XCTAssertEqual(stat(folder.appendingPathComponent("ids/identities.json").path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o600)
        XCTAssertEqual(stat(folder.appendingPathComponent("ids").path, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
    }

    func testVerifyAgainstAnIDPhoto() throws {
        try requireModel()
        let photos = "Tests/Fixtures/identity/photos/"
        var (status, output, _) = try run(["verify", "--against", photos + "biden_1.jpg", photos + "biden_2.jpg"] + config)
        XCTAssertEqual(status, 0, output)
        (status, output, _) = try run(["verify", "--against", photos + "biden_1.jpg", photos + "obama_1.jpg"] + config)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.hasPrefix(#"{"type":"identity""#), output)
        // An identity card: the main portrait and a ghost portrait at half its size. The main
        // face is compared; two people of the same size are refused.
        (status, output, _) = try run(["verify", "--against", photos + "id_card_biden.jpg", photos + "biden_2.jpg"] + config)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains(#""match":true"#), output)
        (status, output, _) = try run(["verify", "--against", photos + "id_card_biden.jpg", photos + "obama_1.jpg"] + config)
        XCTAssertEqual(status, 1, output)
        var error: String
        (status, _, error) = try run(["verify", "--against", photos + "two_people.jpg", photos + "biden_2.jpg"] + config)
        XCTAssertEqual(status, 2, error)
        XCTAssertTrue(error.contains("more than one face of about the same size"), error)
    }

    func testCheckIdentityOnRecordings() throws {
        try requireModel()
        var (status, _, error) = try run(["enroll", "hopper", "--replay", "Recordings/hopper-blinks", "--frames", "3"] + config)
        XCTAssertEqual(status, 0, error)
        // The enrolled person passes.
        var output: String
        (status, output, _) = try run(["check", "--identity", "hopper", "--replay", try genuineHopper(), "--challenge", "blink",
                                       "--seed", "1"] + config)
        XCTAssertEqual(status, 0, output)
        XCTAssertTrue(output.contains(#""type":"identity""#), output)
        XCTAssertFalse(output.contains(#""match":false"#), output)
        // Another person fails before any prompt.
        (status, output, _) = try run(["check", "--identity", "hopper", "--replay", "Recordings/blinks-slow-move", "--challenge", "blink"] + config)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains(#""reason":"identity_mismatch""#), output)
        // A swap to another person mid-check fails.
        (status, output, _) = try run(["check", "--identity", "hopper", "--replay", "Recordings/identity-swap", "--challenge", "blink,blink"] + config)
        XCTAssertEqual(status, 1, output)
        XCTAssertTrue(output.contains(#""reason":"identity_changed""#), "the tracker keeps the face; the identity catches the swap: \(output)")
        XCTAssertTrue(output.contains(#""type":"prompt""#), "the swap happens during the check: \(output)")
    }
}
