#if canImport(Glibc)
import Glibc
#endif
import Foundation
import XCTest
@testable import Events

/// A reader that stopped reading holds the writer until shutdown gives it a deadline
/// (reliability finding D7); errors name errno in words.
final class StalledReaderTests: XCTestCase {
    func testGiveUpEndsAWriteBlockedByAStalledReader() throws {
        var fds: [Int32] = [-1, -1]
        XCTAssertEqual(pipe(&fds), 0)
        defer { for fd in fds { close(fd) } }
        let writer = JSONLinesWriter(fileDescriptor: fds[1])
        let event = Event(t: 1, frame: 1, .error(message: String(repeating: "x", count: 1000), code: "test"))
        let done = DispatchSemaphore(value: 0)
        let failure = LockedBox<Error?>(nil)
        DispatchQueue.global().async {
            // Nobody reads: the pipe fills (64 KiB) and the next write blocks.
            do { while true { try writer.write(event) } } catch { failure.value = error }
            done.signal()
        }
        XCTAssertEqual(done.wait(timeout: .now() + 1), .timedOut, "blocked, as back-pressure should")
        let asked = Date()
        writer.giveUp(after: 0.5)
        XCTAssertEqual(done.wait(timeout: .now() + 3), .success, "the write gave up")
        XCTAssertLessThan(Date().timeIntervalSince(asked), 1.5)
        XCTAssertEqual(failure.value as? EventsError, .writeTimedOut(descriptor: fds[1]))
        // The lines written are whole: the pipe holds complete lines only.
        var bytes = [UInt8](repeating: 0, count: 1 << 17)
        _ = fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK)
        let n = read(fds[0], &bytes, bytes.count)
        XCTAssertGreaterThan(n, 0)
        XCTAssertEqual(bytes[n - 1], UInt8(ascii: "\n"))
    }

    func testPastTheDeadlineADescriptorThatTakesDataIsStillWritten() throws {
        // Shutdown gives the writer a deadline; the closing events that come after it still go to
        // a reader that keeps up (here a file), as the kernel test's slow guest showed.
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-deadline-\(UUID().uuidString)").path
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        XCTAssertGreaterThanOrEqual(fd, 0)
        defer { close(fd); unlink(path) }
        let writer = JSONLinesWriter(fileDescriptor: fd)
        writer.giveUp(after: 0)
        Thread.sleep(forTimeInterval: 0.05)
        try writer.write(Event(t: 1, frame: 1, .error(message: "after the deadline", code: "test")))
        let written = try String(contentsOfFile: path, encoding: .utf8)
        XCTAssertTrue(written.contains("after the deadline"), written)
    }

    func testErrnoIsNamedInWords() {
        let text = EventsError.writeFailed(descriptor: 1, errno: ENOSPC).description
        XCTAssertEqual(text, "writing events to file descriptor 1 failed: No space left on device (errno 28)")
    }

    func testAnEmptyEventListIsRejected() {
        for list in ["", " ", ","] {
            XCTAssertThrowsError(try EventFilter(parsing: list)) { XCTAssertEqual($0 as? EventsError, .noEventTypes) }
        }
    }
}

/// A value shared between a test and a background queue.
/// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
private final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) { stored = value }

    var value: Value {
        get { lock.lock(); defer { lock.unlock() }; return stored }
        set { lock.lock(); stored = newValue; lock.unlock() }
    }
}
