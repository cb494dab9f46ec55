import Config
import Events
import Foundation
import Imaging
import Landmarks
import Pipeline
import Recordings
import XCTest

/// The live pipeline (capture → one-slot handoff → processing → writer) fed by a recording
/// played on its own clock, as a camera would deliver it.
final class LivePipelineTests: XCTestCase {
    private var folder: URL!
    private static let predictor = Result { try ShapePredictor(contentsOf: Configuration().landmarkModel) }

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-live-\(UUID().uuidString)")
        var decoder = JPEGDecoder()
        let face = try decoder.decodeGray(Data(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fixtures/landmarks/hog/astronaut_w120.jpg")))
        let jpeg = try JPEGEncoder.encode(face, quality: 75)
        let writer = try RecordingWriter(directory: folder.path, info: RecordingInfo(width: face.width, height: face.height,
                                                                                     fps: 30, source: "LivePipelineTests"))
        for n in 0..<45 { try writer.append(jpeg: jpeg, t: Double(n) / 30) }
        try writer.finish()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    private func pipeline(sink: EventSink, statsInterval: Double = 0.5) throws -> LivePipeline {
        let processor = try FrameProcessor(configuration: Configuration(), predictor: Self.predictor.get())
        return LivePipeline(processor: processor, sink: sink, statsInterval: statsInterval)
    }

    func testAtCameraSpeedEveryFrameIsProcessedInOrder() throws {
        // 15 fps: a frame every 67 ms leaves room for the first full detection on a loaded CI machine.
        let sink = Collector()
        let live = try pipeline(sink: sink, statsInterval: TestPace.seconds(0.5))
        var source = PacedSource(RecordingSource(recording: try Recording(directory: folder.path)), speed: TestPace.speed(0.5))
        let started = Date()
        let summary = try live.run(&source)
        XCTAssertGreaterThan(Date().timeIntervalSince(started), TestPace.seconds(2.7), "1.5 s of frames at half speed take about 3 s")
        XCTAssertEqual(summary.captured, 45)
        XCTAssertEqual(summary.processed, 45)
        XCTAssertEqual(summary.dropped, 0)
        let frames = sink.events.filter { $0.type != .stats }.map(\.frame)
        XCTAssertEqual(frames, frames.sorted(), "events in frame order")
        XCTAssertEqual(sink.events.filter { $0.type == .nose }.count, 45)
        let stats = sink.events.compactMap { event -> Stats? in
            if case .stats(let stats) = event.payload { return stats }
            return nil
        }
        XCTAssertGreaterThanOrEqual(stats.count, 6, "every 0.5 s and once at the end")
        XCTAssertEqual(stats.last?.dropped, 0)
        XCTAssertEqual(stats[1].fpsIn, 15 / TestPace.slowdown, accuracy: 4 / TestPace.slowdown)
    }

    func testFasterThanProcessingDropsFramesCountsThemAndKeepsOrder() throws {
        let sink = Collector(delay: 0.004)  // a writer slower than the frames arrive
        let live = try pipeline(sink: sink)
        var source = PacedSource(RecordingSource(recording: try Recording(directory: folder.path)), speed: 200)
        let summary = try live.run(&source)
        XCTAssertEqual(summary.captured, 45)
        XCTAssertGreaterThan(summary.dropped, 0)
        XCTAssertEqual(summary.processed + summary.dropped, 45, "every frame is either processed or counted as dropped")
        let frames = sink.events.filter { $0.type != .stats }.map(\.frame)
        XCTAssertEqual(frames, frames.sorted())
        if case .stats(let last)? = sink.events.last?.payload {
            XCTAssertEqual(last.dropped, summary.dropped)
        } else {
            XCTFail("the run ends with a stats line")
        }
    }

    func testASlowReaderCostsPerFrameLinesNotEventsOrMemory() throws {
        let sink = Collector(delay: TestPace.seconds(0.02))  // 50 lines a second at most: slower than 30 frames × (nose + frame)
        let processor = try FrameProcessor(configuration: {
            var configuration = Configuration()
            configuration.output = OutputOptions(nose: true, frames: true)
            return configuration
        }(), predictor: Self.predictor.get())
        let live = LivePipeline(processor: processor, sink: sink, statsInterval: TestPace.seconds(10), backlogLimit: 8)
        var source = PacedSource(RecordingSource(recording: try Recording(directory: folder.path)), speed: TestPace.speed(1))
        let summary = try live.run(&source)
        // A loaded machine may drop a late frame on the way in; that is counted apart (not this test's point).
        XCTAssertEqual(summary.processed + summary.dropped, 45)
        XCTAssertGreaterThan(summary.droppedLines, 0)
        let events = sink.events
        XCTAssertEqual(events.filter { $0.type == .faceFound }.count, 1, "discrete events are kept")
        XCTAssertEqual(events.filter { $0.type == .faceLost }.count, 1)
        XCTAssertTrue(events.contains { event in
            if case .error(_, let code) = event.payload { return code == "output_backlog" }
            return false
        })
        let perFrame = events.filter { $0.type == .nose || $0.type == .frame }.count
        XCTAssertEqual(perFrame + summary.droppedLines, 2 * summary.processed, "every nose/frame line is written or counted")
    }

    func testStopEndsTheRunPromptlyAndClosesTracks() throws {
        let sink = Collector()
        let live = try pipeline(sink: sink)
        var source = PacedSource(RecordingSource(recording: try Recording(directory: folder.path)),
                                 speed: TestPace.speed(1)) { live.isStopping }
        DispatchQueue.global().asyncAfter(deadline: .now() + TestPace.seconds(0.4)) { live.stop() }
        let started = Date()
        let summary = try live.run(&source)
        XCTAssertLessThan(Date().timeIntervalSince(started), TestPace.seconds(1.0))
        XCTAssertLessThan(summary.captured, 45)
        XCTAssertEqual(sink.events.filter { $0.type == .faceFound }.count, 1)
        XCTAssertEqual(sink.events.filter { $0.type == .faceLost }.count, 1, "the track is closed on the way out")
    }

    /// A camera that stalls after its frames (timeouts reported as frame errors at later times)
    /// and then ends: the events closing the track at shutdown come after those errors, every
    /// event is in time order, and stats lines written while nothing new arrived do not repeat a `t`.
    func testEventsAtShutdownAreInTimeOrderAndStatsNeverShareATime() throws {
        let sink = Collector()
        let live = try pipeline(sink: sink, statsInterval: TestPace.seconds(0.1))
        let frames = PacedSource(RecordingSource(recording: try Recording(directory: folder.path)), speed: TestPace.speed(1))
        var source = StallingSource(frames: frames, stalls: [2.0, 2.5, 3.0], wait: TestPace.seconds(0.35))
        _ = try live.run(&source)
        let events = sink.events
        let times = events.map(\.t)
        XCTAssertEqual(times, times.sorted(), "events in time order: \(events.map { "\($0.type)@\($0.t)" })")
        let faceLost = try XCTUnwrap(events.last { $0.type == .faceLost })
        XCTAssertEqual(faceLost.t, 3.0, "the track closes at the last time seen (the last timeout)")
        let statsTimes = events.filter { $0.type == .stats }.map(\.t)
        XCTAssertGreaterThanOrEqual(statsTimes.count, 5)
        XCTAssertEqual(statsTimes.count, Set(statsTimes).count, "stats times \(statsTimes)")
    }

    func testAClosedPipeEndsTheRunWithItsError() throws {
        let sink = Collector(failAfter: 5)
        let live = try pipeline(sink: sink)
        var source = PacedSource(RecordingSource(recording: try Recording(directory: folder.path)), speed: 4) { live.isStopping }
        XCTAssertThrowsError(try live.run(&source)) { error in
            XCTAssertTrue((error as? EventsError)?.isBrokenPipe == true, "\(error)")
        }
        XCTAssertEqual(sink.events.count, 5)
    }
}

/// A source that delivers its frames, then reports a timeout (a `FrameError`) at each of
/// `stalls` after waiting `wait` seconds, then ends: a camera that stopped sending.
private struct StallingSource<Frames: FrameSource>: FrameSource {
    var frames: Frames
    var stalls: [Double]
    let wait: Double
    private var lastIndex = 0

    init(frames: Frames, stalls: [Double], wait: Double) {
        self.frames = frames
        self.stalls = stalls
        self.wait = wait
    }

    mutating func nextFrame() throws -> Frame? {
        if let frame = try frames.nextFrame() {
            lastIndex = frame.index
            return frame
        }
        guard !stalls.isEmpty else { return nil }
        Thread.sleep(forTimeInterval: wait)
        lastIndex += 1
        throw FrameError(index: lastIndex, t: stalls.removeFirst(), problem: "no frame within 0.5 s")
    }
}

/// Collects events; optionally slow, or failing like a closed pipe after some events.
/// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
private final class Collector: EventSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Event] = []
    private let delay: Double
    private let failAfter: Int?

    init(delay: Double = 0, failAfter: Int? = nil) {
        self.delay = delay
        self.failAfter = failAfter
    }

    var events: [Event] {
        lock.lock()
        defer { lock.unlock() }
        return stored
    }

    func write(_ event: Event) throws {
        if delay > 0 { Thread.sleep(forTimeInterval: delay) }
        lock.lock()
        defer { lock.unlock() }
        if let failAfter, stored.count >= failAfter { throw EventsError.writeFailed(descriptor: 1, errno: EPIPE) }
        stored.append(event)
    }
}
