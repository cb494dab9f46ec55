import Config
import Daemon
import Events
import Foundation
import Logging
import Sinks
import XCTest

/// What `run`, `serve` and `replay` write to besides standard output, wired from the configuration.
final class IntegrationsTests: XCTestCase {
    private let logger = Logger(label: "IntegrationsTests")
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("facewatch-integrations-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testWithoutAWebServerTheConfigurationAndFilterAreKept() {
        let filter = EventFilter(types: [.blink, .frame])
        let (configuration, kept) = Integrations.processing(Configuration(), httpBind: nil, filter: filter)
        XCTAssertEqual(configuration.output, Configuration().output)
        XCTAssertEqual(kept, filter)
    }

    func testAWebServerGetsFrameLinesThatTheOtherSinksDoNot() {
        var requested = Configuration()
        requested.output = OutputOptions(nose: false, frames: false)
        let (configuration, filter) = Integrations.processing(requested, httpBind: "127.0.0.1:0", filter: .all)
        XCTAssertEqual(configuration.output, OutputOptions(nose: false, frames: true, landmarks: false))
        XCTAssertFalse(filter.accepts(.frame))
        XCTAssertTrue(filter.accepts(.blink))
    }

    func testFrameLinesAskedForStayForEverySink() {
        var requested = Configuration()
        requested.output = OutputOptions(frames: true)
        let (configuration, filter) = Integrations.processing(requested, httpBind: "127.0.0.1:0", filter: .all)
        XCTAssertEqual(configuration.output, requested.output)
        XCTAssertTrue(filter.accepts(.frame))
    }

    func testWithNothingConfiguredStandardOutputIsTheOnlySink() throws {
        let outputs = try Integrations(configuration: Configuration(), httpBind: nil, pageFilter: .all, filter: .all, logger: logger)
        XCTAssertNil(outputs.socket)
        XCTAssertNil(outputs.web)
        XCTAssertNil(outputs.metrics)
        XCTAssertNil(outputs.mqtt)
        let primary = Recorder()
        XCTAssertTrue(outputs.sink(primary: primary) === primary)
        XCTAssertNil(outputs.finish())
    }

    func testTheSocketGetsEveryEventAfterStandardOutputAndIsClosedOnce() throws {
        let path = folder.appendingPathComponent("events.sock").path
        let socket = try SocketEventServer(path: path)
        let outputs = try Integrations(configuration: Configuration(), httpBind: nil, pageFilter: .all, filter: .all,
                                       socket: socket, logger: logger)
        let primary = Recorder()
        let sink = try XCTUnwrap(outputs.sink(primary: primary) as? FanOutSink)
        XCTAssertTrue(sink.primary === primary)
        XCTAssertEqual(sink.others.count, 1)
        XCTAssertTrue(sink.others.first === socket)
        try sink.write(Event(t: 0.5, frame: 15, .error(message: "test", code: "recording")))
        XCTAssertEqual(primary.events.map(\.type), [.error])
        XCTAssertNil(outputs.finish())
        XCTAssertNil(outputs.finish(), "a second finish does nothing")
    }
}

/// Keeps what it is given.
final class Recorder: EventSink {
    var events: [Event] = []

    func write(_ event: Event) throws {
        events.append(event)
    }
}
