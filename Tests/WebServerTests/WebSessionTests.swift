import Events
import Foundation
import Logging
import ServiceLifecycle
import Telemetry
import WebServer
import XCTest

/// Stopping the server (the end of a replay, SIGTERM to the daemon) is a graceful shutdown: an
/// open event stream ends, the port closes, and nothing is logged as an error (cancelling the
/// server's task logged "Waiting on child channel: CancellationError()" and "Server shutdown
/// error: Already closed" at every stop).
final class WebSessionTests: XCTestCase {
    /// Keeps every log record of the loggers made with it.
    /// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
    private final class Records: @unchecked Sendable {
        private let lock = NSLock()
        private var records: [(Logger.Level, String)] = []

        func append(_ level: Logger.Level, _ message: String) { lock.withLock { records.append((level, message)) } }
        var all: [(Logger.Level, String)] { lock.withLock { records } }

        /// The port of the "serving http://127.0.0.1:PORT/" line, once it is there.
        func waitForPort(seconds: Double) -> Int? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                if let line = all.map(\.1).first(where: { $0.hasPrefix("serving http://127.0.0.1:") }),
                   let port = Int(line.dropFirst("serving http://127.0.0.1:".count).dropLast()) {
                    return port
                }
                usleep(10_000)
            }
            return nil
        }
    }

    private struct RecordingHandler: LogHandler {
        let records: Records
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        // swiftlint:disable:next function_parameter_count
        func log(level: Logger.Level, message: Logger.Message, metadata: Logger.Metadata?, source: String,
                 file: String, function: String, line: UInt) {
            records.append(level, message.description)
        }
    }

    func testStoppingEndsAnOpenEventStreamWithoutLoggingAnError() async throws {
        let records = Records()
        let logger = Logger(label: "test") { _ in RecordingHandler(records: records) }
        let session = WebSession(policy: try AccessPolicy(bind: "127.0.0.1:0", token: nil), filter: .all, video: false,
                                 videoFPS: 10, metrics: FacewatchMetrics(), pages: try PageFiles())
        let group = ServiceGroup(services: [session.service(logger: logger)], logger: logger)
        let serving = Task { try await group.run() }
        let port = try XCTUnwrap(records.waitForPort(seconds: 20), "the server never listened")

        // An event stream that stays open, as the live page's.
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let request = "GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
        XCTAssertEqual(request.withCString { send(client, $0, strlen($0), 0) }, request.utf8.count)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        var received = ""
        while !received.contains("retry: 1000") {
            let count = recv(client, &buffer, buffer.count, 0)
            guard count > 0 else { return XCTFail("the event stream did not start: \(received)") }
            received += String(decoding: buffer[..<count], as: UTF8.self)
        }
        XCTAssertTrue(received.hasPrefix("HTTP/1.1 200"), received)

        let started = Date()
        await group.triggerGracefulShutdown()
        try await serving.value
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "stop waited for the stream")
        // The stream ends: the client reads to the end of the connection.
        var last = 0
        repeat { last = recv(client, &buffer, buffer.count, 0) } while last > 0
        XCTAssertEqual(last, 0, "the stream did not end (errno \(errno))")
        XCTAssertNil(session.error)
        let errors = records.all.filter { $0.0 >= .error }.map(\.1)
        XCTAssertEqual(errors, [], "logged at error level when stopping")
    }

    func testAPortInUseIsAnErrorNamingTheAddress() async throws {
        let taken = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(taken) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(taken, $0, length) == 0 && listen(taken, 1) == 0
                && getsockname(taken, $0, &length) == 0 }
        }
        XCTAssertTrue(bound)
        let port = Int(UInt16(bigEndian: address.sin_port))
        let session = WebSession(policy: try AccessPolicy(bind: "127.0.0.1:\(port)", token: nil), filter: .all, video: false,
                                 videoFPS: 10, metrics: FacewatchMetrics(), pages: try PageFiles())
        let logger = Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }
        do {
            try await ServiceGroup(services: [session.service(logger: logger)], logger: logger).run()
            XCTFail("the server served on a port in use")
        } catch {
            XCTAssertEqual("\(error)", "cannot serve on 127.0.0.1:\(port): Address already in use")
        }
        XCTAssertEqual(session.error.map { "\($0)" }, "cannot serve on 127.0.0.1:\(port): Address already in use")
    }
}
