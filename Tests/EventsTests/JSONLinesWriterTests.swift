#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import XCTest
@testable import Events

final class JSONLinesWriterTests: XCTestCase {
    private var fds: [Int32] = [-1, -1]

    override func setUpWithError() throws {
        XCTAssertEqual(pipe(&fds), 0)
        // Non-blocking reads: whatever is in the pipe right after a write is what was flushed.
        XCTAssertNotEqual(fcntl(fds[0], F_SETFL, fcntl(fds[0], F_GETFL) | O_NONBLOCK), -1)
    }

    override func tearDown() {
        for fd in fds where fd >= 0 { close(fd) }
    }

    private func available() -> String {
        var bytes = [UInt8](repeating: 0, count: 65536)
        let n = read(fds[0], &bytes, bytes.count)
        return n > 0 ? String(decoding: bytes[0..<n], as: UTF8.self) : ""
    }

    func testEachLineIsInThePipeAsSoonAsItIsWritten() throws {
        let writer = JSONLinesWriter(fileDescriptor: fds[1])
        try writer.write(Event(t: 1, frame: 30, .faceLost(face: 4)))
        XCTAssertEqual(available(), #"{"type":"face_lost","t":1,"frame":30,"face":4}"# + "\n")
        try writer.write(Event(t: 1.5, frame: 45, .nose(face: 4, x: 0.25, y: 0.75)))
        XCTAssertEqual(available(), #"{"type":"nose","t":1.5,"frame":45,"face":4,"x":0.25,"y":0.75}"# + "\n")
        XCTAssertEqual(available(), "")
    }

    func testFilterKeepsOnlyTheAskedTypes() throws {
        let writer = JSONLinesWriter(fileDescriptor: fds[1], filter: try EventFilter(parsing: "blink, smile"))
        try writer.write(Event(t: 0.1, frame: 3, .nose(face: 0, x: 0.5, y: 0.5)))
        try writer.write(Event(t: 0.2, frame: 6, .blink(face: 0, start: 0.1, duration: 0.1)))
        try writer.write(Event(t: 0.3, frame: 9, .mouthOpen(face: 0, state: .start, mar: 0.5)))
        try writer.write(Event(t: 0.4, frame: 12, .smile(face: 0, state: .end, score: 0.1)))
        XCTAssertEqual(available(), """
            {"type":"blink","t":0.2,"frame":6,"face":0,"start":0.1,"duration_ms":100}
            {"type":"smile","t":0.4,"frame":12,"face":0,"state":"end","score":0.1}

            """)
    }

    func testWriteToAClosedPipeThrows() throws {
        // SIGPIPE would end the test process; ignore it as the daemon must.
        let previous = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previous) }
        close(fds[0])
        fds[0] = -1
        let writer = JSONLinesWriter(fileDescriptor: fds[1])
        XCTAssertThrowsError(try writer.write(Event(t: 0, frame: 0, .faceLost(face: 0)))) {
            XCTAssertEqual($0 as? EventsError, .writeFailed(descriptor: self.fds[1], errno: EPIPE))
        }
    }

    func testFileHandleWriter() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("events-\(getpid()).jsonl")
        XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: nil))
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forWritingTo: url)
        let writer = JSONLinesWriter(fileHandle: handle)
        try writer.write(Event(t: 2, frame: 60, .faceFound(face: 1, box: .init(x: 1, y: 2, width: 3, height: 4))))
        try writer.write(Event(t: 2, frame: 60, .faceLost(face: 1)))
        try handle.close()
        XCTAssertEqual(try String(contentsOf: url, encoding: .utf8), """
            {"type":"face_found","t":2,"frame":60,"face":1,"box":[1,2,3,4]}
            {"type":"face_lost","t":2,"frame":60,"face":1}

            """)
    }
}

final class EventFilterTests: XCTestCase {
    func testParsing() throws {
        XCTAssertEqual(try EventFilter(parsing: "blink,smile").types, [.blink, .smile])
        XCTAssertEqual(try EventFilter(parsing: " eyes_closed , wink ").types, [.eyesClosed, .wink])
        XCTAssertNil(try EventFilter(parsing: "all").types)
        let filter = try EventFilter(parsing: "mouth_open")
        XCTAssertTrue(filter.accepts(.mouthOpen))
        XCTAssertFalse(filter.accepts(.frame))
        XCTAssertTrue(EventFilter.all.accepts(.stats))
    }

    func testUnknownNamesAreErrorsThatListTheValidOnes() {
        XCTAssertThrowsError(try EventFilter(parsing: "blink,blinks")) { error in
            XCTAssertEqual(error as? EventsError, .unknownEventType("blinks"))
            XCTAssertTrue("\(error)".contains("'blinks'"))
            XCTAssertTrue("\(error)".contains("face_found, face_lost, blink, wink, eyes_closed"))
        }
        XCTAssertThrowsError(try EventFilter(parsing: "blink,,smile"))
    }
}
