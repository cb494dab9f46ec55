import FacewatchKit
import Foundation
import XCTest

/// The library's streams on the bundled recordings: the events `facewatch replay` gives, the
/// blinks a person marked by eye, per-frame results, the check.
final class FacewatchTests: XCTestCase {
    private static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Recordings")

    private func path(_ name: String) -> String { Self.recordings.appendingPathComponent(name).path }

    func testTheEventStreamHasTheTruthsBlinksAndReplaysLines() async throws {
        let facewatch = Facewatch()
        var events: [Event] = []
        for try await event in facewatch.events(replaying: path("blinks-slow-move")) { events.append(event) }
        // The blinks marked in truth.json (made when the clip was made), each found once.
        let truth = try XCTUnwrap(Recording(directory: path("blinks-slow-move")).truth)
        let marked = truth.events.filter { $0.type == "blink" }
        XCTAssertEqual(marked.count, 5)
        var starts: [Double] = []
        for event in events { if case .blink(_, let start, _) = event.payload { starts.append(start) } }
        XCTAssertEqual(starts.count, marked.count)
        for (start, blink) in zip(starts, marked) { XCTAssertEqual(start, blink.start, accuracy: 0.1) }
        // The same lines the pipeline's replay writes.
        let processor = try FrameProcessor(configuration: facewatch.configuration)
        let recording = try Recording(directory: path("blinks-slow-move"))
        var source = RecordingSource(recording: recording)
        let sink = Lines()
        _ = try Replay.run(&source, processor: processor, sink: sink)
        let encoder = EventEncoder()
        XCTAssertEqual(events.map { encoder.line($0) }, sink.lines)
    }

    func testFramesCarryEveryFrameWithItsFacesAndEvents() async throws {
        var updates: [FrameUpdate] = []
        for try await update in Facewatch().frames(replaying: path("two-faces")) { updates.append(update) }
        let recording = try Recording(directory: path("two-faces"))
        XCTAssertEqual(updates.count, recording.frames.count + 1, "every frame, then the tracks closed at the end")
        XCTAssertEqual(updates.dropLast().map(\.result.index), recording.frames.map(\.index))
        XCTAssertEqual(updates[60].result.faces.count, 2)
        XCTAssertTrue(updates[60].result.faces.allSatisfy { $0.shape.count == 68 })
        let lost = updates.last!.events.filter { if case .faceLost(_, .end) = $0.payload { return true } else { return false } }
        XCTAssertEqual(lost.count, 2)
    }

    func testStoppingEarlyAndAMissingRecording() async throws {
        var seen = 0
        for try await _ in Facewatch().events(replaying: path("blinks-slow-move")) {
            seen += 1
            if seen == 3 { break }
        }
        XCTAssertEqual(seen, 3)
        do {
            for try await _ in Facewatch().events(replaying: "/nonexistent/recording") {}
            XCTFail("no error")
        } catch {
            XCTAssertTrue("\(error)".contains("/nonexistent/recording"), "\(error)")
        }
    }

    func testATurnedPrintedPhotoFailsANodCheck() throws {
        let verdict = try Facewatch().check(try Challenge(parsing: "nod"), seed: 2, replaying: path("photo-turned"))
        XCTAssertFalse(verdict.passed)
    }
}

/// The lines a replay writes.
private final class Lines: EventSink {
    var lines: [String] = []
    private let encoder = EventEncoder()

    func write(_ event: Event) throws {
        lines.append(encoder.line(event))
    }
}
