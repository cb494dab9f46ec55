import Foundation
import Recordings
import XCTest

/// The binary under signals, stalled readers, full disks and bad arguments (reliability findings
/// D7, D8, D11, D12, D15 and the unnamed-image errors).
extension DaemonTests {
    /// Reads a pipe to its end on a background queue; `lines()` waits for the end.
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
}
