import Foundation
import XCTest

/// `facewatch pointer` as users run it: the moves computed from a recording, the uinput device
/// where the machine has one, and one clear error where it does not.
final class PointerCommandTests: XCTestCase {
    private var binary: URL {
        var url = Bundle(for: PointerCommandTests.self).bundleURL
        while url.pathExtension == "xctest" || url.lastPathComponent == "Contents" { url.deleteLastPathComponent() }
        return url.appendingPathComponent("facewatch")
    }

    private let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    private func run(_ arguments: [String]) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errors, as: UTF8.self))
    }

    /// In `blinks-slow-move` the astronaut sways to her own left (the image's right) and back to
    /// her right: the mirrored pointer goes left, then right.
    func testAHeadMovingLeftThenRightMovesThePointerLeftThenRight() throws {
        let result = try run(["pointer", "--dry-run", "--replay", recordings.appendingPathComponent("blinks-slow-move").path])
        XCTAssertEqual(result.status, 0, result.err)
        let moves = result.out.split(separator: "\n").compactMap { line -> (t: Double, x: Double)? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == "pointer_move",
                  let t = object["t"] as? Double, let x = object["x"] as? Double else { return nil }
            return (t, x)
        }
        XCTAssertGreaterThan(moves.count, 100, result.out)
        XCTAssertGreaterThanOrEqual(moves.first?.t ?? 0, 1, "the first second calibrates the neutral point")
        let leftmost = try XCTUnwrap(moves.min { $0.x < $1.x }), rightmost = try XCTUnwrap(moves.max { $0.x < $1.x })
        // The neutral point is learned while she already sways, so the leftward swing is the smaller.
        XCTAssertLessThan(leftmost.x, 0.46, "the pointer went left of centre")
        XCTAssertGreaterThan(rightmost.x, 0.7, "the pointer went well right")
        XCTAssertLessThan(leftmost.t, rightmost.t, "left first, then right")
        // Between the two, the pointer travels steadily right (the One Euro filter leaves no jitter back).
        let sweep = moves.filter { $0.t >= leftmost.t && $0.t <= rightmost.t }.map(\.x)
        XCTAssertTrue(zip(sweep, sweep.dropFirst()).allSatisfy { $1 >= $0 - 1e-4 }, "\(sweep)")
    }

    func testWithoutUinputOneClearErrorSaysHowToGrantAccess() throws {
        let result = try run(["pointer", "--replay", recordings.appendingPathComponent("no-face").path,
                              "--uinput", "/nonexistent/uinput"])
        XCTAssertNotEqual(result.status, 0)
        let lines = result.err.split(separator: "\n").filter { $0.hasPrefix("Error") }
        XCTAssertEqual(lines.count, 1, result.err)
        XCTAssertTrue(result.err.contains("/nonexistent/uinput: No such file or directory"), result.err)
        XCTAssertTrue(result.err.contains("Scripts/99-facewatch-uinput.rules"), result.err)
        XCTAssertTrue(result.err.contains("--dry-run"), result.err)
    }

    func testTheUinputDeviceWhereTheMachineHasOne() throws {
        guard access("/dev/uinput", W_OK) == 0 else {
            throw XCTSkip("/dev/uinput is missing or not writable here; the computed moves are tested above")
        }
        let result = try run(["pointer", "--replay", recordings.appendingPathComponent("blinks-slow-move").path])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(result.out, "", "moves go to the device, not standard output")
    }
}
