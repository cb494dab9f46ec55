import Config
import Daemon
import Events
import Foundation
import Logging
import Pipeline
import Recordings
import XCTest

/// How a live run ends: with its summary, or quietly when the reader of standard output is gone.
final class LiveRunTests: XCTestCase {
    private func live(writingTo descriptor: Int32) throws -> LiveRun {
        let outputs = try Integrations(configuration: Configuration(), httpBind: nil, pageFilter: .all, filter: .all,
                                       logger: Logger(label: "LiveRunTests"))
        return LiveRun(outputs: outputs, processor: try FrameProcessor(configuration: Configuration()),
                       stdout: JSONLinesWriter(fileDescriptor: descriptor), statsInterval: 1)
    }

    func testASourceThatEndsFinishesTheRun() throws {
        let null = open("/dev/null", O_WRONLY)
        defer { close(null) }
        let source = NoFrames()
        guard case .finished(let summary) = try live(writingTo: null).run(source) else { return XCTFail("not finished") }
        XCTAssertEqual(summary.captured, 0)
        XCTAssertEqual(summary.processed, 0)
    }

    func testAReaderThatWentAwayIsANormalEnd() throws {
        signal(SIGPIPE, SIG_IGN)  // as the command does: a closed pipe is an error, not a signal
        var ends: [Int32] = [0, 0]
        XCTAssertEqual(pipe(&ends), 0)
        close(ends[0])
        defer { close(ends[1]) }
        let source = NoFrames()
        XCTAssertEqual(try live(writingTo: ends[1]).run(source), .readerGone, "the closing stats line met a closed pipe")
    }
}

/// A stream that has ended.
private struct NoFrames: FrameSource {
    mutating func nextFrame() throws -> Frame? { nil }
}
