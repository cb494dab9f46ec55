import Foundation
import Recordings
import XCTest

/// The binary under signals, stalled readers, full disks and bad arguments (reliability findings
/// D7, D8, D11, D12, D15, the unnamed-image errors, and options out of the ranges the program
/// can work with).
extension DaemonTests {
    /// Reads a pipe to its end on a background queue; `lines()` waits for the end.
    /// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
    private final class Drain: @unchecked Sendable {
        private var data = Data()
        private let lock = NSLock()
        private let done = DispatchSemaphore(value: 0)

        init(_ pipe: Pipe) {
            DispatchQueue.global().async { [self] in
                let reader = pipe.fileHandleForReading
                while case let chunk = reader.availableData, !chunk.isEmpty {
                    lock.lock()
                    data += chunk
                    lock.unlock()
                }
                done.signal()
            }
        }

        /// Waits (up to a minute) for the first line: the command is past its start-up.
        func waitForFirstLine() {
            let deadline = Date().addingTimeInterval(60)
            while Date() < deadline {
                lock.lock()
                let started = data.contains(0x0A)
                lock.unlock()
                if started { return }
                usleep(20_000)
            }
        }

        func lines() -> [Substring] {
            done.wait()
            lock.lock()
            defer { lock.unlock() }
            return String(decoding: data, as: UTF8.self).split(separator: "\n")
        }
    }

    /// Waits (up to a minute) until a pipe nobody reads is full: it holds over 32 KiB and has
    /// not grown for a second.
    private func waitUntilFull(_ pipe: Pipe) {
        let deadline = Date().addingTimeInterval(60)
        var pending: Int32 = 0, previous: Int32 = -1
        while Date() < deadline {
            _ = ioctl(pipe.fileHandleForReading.fileDescriptor, UInt(FIONREAD), &pending)
            if pending >= 32_768 && pending == previous { return }
            previous = pending
            Thread.sleep(forTimeInterval: 1)
        }
        XCTFail("standard output never filled (\(pending) bytes)")
    }

    func testSigtermStopsRunWhileItsReaderHasStoppedReading() throws {
        let (process, out, _) = try start(["run", "--device", "emulated:\(folder.path)/rec", "--frames", "--landmarks"])
        // Nobody reads standard output: the pipe fills and writes block.
        waitUntilFull(out)
        XCTAssertTrue(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        XCTAssertTrue(wait(process, seconds: 4), "a stalled reader holds the shutdown for about a second, not forever")
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        XCTAssertGreaterThan(lines.count, 10)
        for line in lines { XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), "whole lines only") }
    }

    func testReplayAtFullSpeedStopsOnASignalWithItsClosingLines() throws {
        // --loop near Int.max used to overflow; now it is a replay that runs until stopped.
        let (process, out, _) = try start(["replay", "\(folder.path)/rec", "--loop", "\(Int.max)"])
        let drain = Drain(out)
        drain.waitForFirstLine()
        Thread.sleep(forTimeInterval: 1)
        XCTAssertTrue(process.isRunning)
        kill(process.processIdentifier, SIGTERM)
        XCTAssertTrue(wait(process, seconds: 5))
        XCTAssertEqual(process.terminationReason, .exit, "handled, not killed by the signal")
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = drain.lines()
        XCTAssertTrue(lines.last?.hasPrefix(#"{"type":"face_lost""#) == true, "open tracks are closed: \(lines.suffix(2))")
        for line in lines { XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)), String(line)) }
    }

    func testARecordingStoppedBySigtermReplays() throws {
        let out = folder.appendingPathComponent("stopped").path
        let (process, _, _) = try start(["record", "--device", "emulated:\(folder.path)/rec", "--seconds", "60", "--out", out])
        let index = URL(fileURLWithPath: out).appendingPathComponent("frames.jsonl").path
        let deadline = Date().addingTimeInterval(60)
        while ((try? FileManager.default.attributesOfItem(atPath: index)[.size] as? Int) ?? 0) < 1000 && Date() < deadline {
            usleep(50_000)
        }
        kill(process.processIdentifier, SIGTERM)
        XCTAssertTrue(wait(process, seconds: 5))
        XCTAssertEqual(process.terminationStatus, 0)
        let recording = try Recording(directory: out)
        XCTAssertGreaterThan(recording.frames.count, 10)
        XCTAssertEqual(recording.info.frameCount, recording.frames.count, "finished like a recording that ran its course")
    }

    func testAFullDiskStopsTheRecordingNotTheDaemon() throws {
        let out = folder.appendingPathComponent("full").path
        // A file size limit makes writes fail as a full disk does (the daemon ignores SIGXFSZ).
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--fsize=60000", binary.path, "run", "--device", "emulated:\(folder.path)/rec", "--record", out,
                             "--events", "face_found,error,stats"]
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = Pipe()
        try process.run()
        let drain = Drain(stdout)
        drain.waitForFirstLine()
        Thread.sleep(forTimeInterval: 4)
        XCTAssertTrue(process.isRunning, "the daemon carries on")
        kill(process.processIdentifier, SIGTERM)
        XCTAssertTrue(wait(process, seconds: 5))
        XCTAssertEqual(process.terminationStatus, 0)
        let lines = drain.lines()
        let failure = lines.firstIndex { $0.contains(#""code":"record_failed""#) }
        XCTAssertNotNil(failure, lines.joined(separator: "\n"))
        XCTAssertGreaterThan(lines.filter { $0.hasPrefix(#"{"type":"stats""#) }.count, 2, "events go on after the recording stopped")
        let recording = try Recording(directory: out)
        XCTAssertGreaterThan(recording.frames.count, 0, "what fitted replays")
    }

    func testImageErrorsNameTheFile() throws {
        let bad = folder.appendingPathComponent("broken.jpg")
        try Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 7, count: 200)).write(to: bad)
        for command in ["detect", "landmarks"] {
            let (process, _, err) = try start([command, bad.path])
            XCTAssertTrue(wait(process, seconds: 20))
            XCTAssertEqual(process.terminationStatus, 1)
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(text.contains("\(bad.path): bad JPEG"), text)
        }
    }

    /// Options the program cannot work with are usage errors (exit 64; `check`: 2) naming the option, not a
    /// crash (`--fps 1e308` overflowed the frame interval) or a silently wrong run (`--speed
    /// 1e-300` made every frame's wait NaN, so the replay ran unpaced and dropped frames).
    func testOutOfRangeOptionsAreUsageErrors() throws {
        let rec = "\(folder.path)/rec"
        let empty = "\(folder.path)/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["replay", rec, "--speed", "1e-300"], "--speed must be 0 (every frame, as fast as possible) or a number from 0.01"),
            (["serve", "--replay", rec, "--speed", "0"], "--speed must be a number from 0.01"),
            (["run", "--device", "emulated:\(rec)", "--fps", "1e308"], "--fps must be from 1.0 to 240.0; got 1e+308"),
            (["run", "--device", "emulated:\(rec)", "--size", "100000x480"], "--size is WIDTHxHEIGHT, each from 16 to 8192"),
            (["run", "--device", "emulated:\(rec)", "--poll-timeout", "1e308"], "--poll-timeout must be from 0.05 to 60.0"),
            (["run", "--device", "emulated:\(rec)", "--buffers", "100000"], "--buffers must be from 2 to 32"),
            (["bench", rec, "--rounds", "0"], "--rounds must be at least 1"),
            (["eval", rec, "--min-f1", "nan"], "--min-f1 must be from 0 to 1; got nan"),
            (["eval", rec, "--tolerance=-1"], "--tolerance must be from 0 to 60 seconds; got -1.0"),
            (["bench", rec, "--hog-frames", "\(folder.path)/none"], "--hog-frames \(folder.path)/none: cannot read the folder"),
            (["bench", rec, "--hog-frames", rec], "--hog-frames \(rec): no .jpg in the folder"),
            (["check-eval", "--attacks", "\(folder.path)/none"], "\(folder.path)/none: not a folder"),
            (["check-eval", "--genuine", empty, rec], "\(empty): no recording in it"),
            (["check-eval", "--attacks", rec, "--seeds", "0"], "--seeds and --genuine-seeds must be from 1 to 1000"),
        ]
        for (arguments, message) in cases {
            let (process, _, err) = try start(arguments)
            XCTAssertTrue(wait(process, seconds: 20), "\(arguments)")
            XCTAssertEqual(process.terminationStatus, 64, "\(arguments)")
            let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            XCTAssertTrue(text.hasPrefix("Error: \(message)"), "\(arguments): \(text)")
        }
        // `check` ends every error with its own status, 2 (1 is a failed check).
        let (process, _, err) = try start(["check", "--replay", rec, "--step-timeout", "1e308"])
        XCTAssertTrue(wait(process, seconds: 20))
        XCTAssertEqual(process.terminationStatus, 2)
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(text.hasPrefix("Error: --step-timeout must be more than 0 and at most 3600 seconds; got 1e+308"), text)
    }
}
