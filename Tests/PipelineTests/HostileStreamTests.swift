import Config
import Events
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings
import XCTest

/// Streams that end in bad frames (reliability finding D13) and recordings with absurd time gaps.
final class HostileStreamTests: XCTestCase {
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }

    /// How many bad frames an `error` event accounts for: "(N bad frames since …)", else 1.
    private func accounted(_ event: Event) -> Int {
        guard case .error(let message, "bad_frame") = event.payload else { return 0 }
        guard let range = message.range(of: #"\d+ bad frames since"#, options: .regularExpression) else { return 1 }
        return Int(message[range].split(separator: " ")[0]) ?? 0
    }

    func testEveryBadFrameIsReportedByTheEndOfTheStream() throws {
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        var events: [Event] = []
        let bad = Data([0xFF, 0xD8] + [UInt8](repeating: 0, count: 1000))
        for n in 0..<100 { processor.process(jpeg: bad, index: n, t: Double(n) / 30) { events.append($0) } }
        processor.finish(index: 99, t: 99.0 / 30) { events.append($0) }
        XCTAssertEqual(processor.badFrames, 100)
        XCTAssertEqual(events.map(accounted).reduce(0, +), 100, events.map { "\($0.payload)" }.joined(separator: "\n"))
        XCTAssertLessThanOrEqual(events.count, 6, "still rate-limited")
    }

    /// Frames of a recording with a gap of a billion seconds in its clock.
    private struct GapSource: FrameSource {
        var times = [0, 1.0 / 30, 1e9, 1e9 + 1.0 / 30]
        var index = 0

        mutating func nextFrame() throws -> Frame? {
            guard index < times.count else { return nil }
            defer { index += 1 }
            return Frame(index: index, t: times[index], payload: .gray(GrayImage(width: 8, height: 8)))
        }
    }

    func testAHugeGapIsPlayedAsTheLongestWaitNotAStall() throws {
        var source = PacedSource(GapSource(), speed: 1, maximumWait: 0.3)
        let started = Date()
        var count = 0
        while try source.nextFrame() != nil { count += 1 }
        XCTAssertEqual(count, 4)
        let elapsed = Date().timeIntervalSince(started)
        XCTAssertGreaterThanOrEqual(elapsed, 0.3, "the gap is still a pause")
        XCTAssertLessThan(elapsed, 2, "not a billion seconds")
    }
}
