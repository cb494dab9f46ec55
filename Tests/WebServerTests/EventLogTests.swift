import Events
import WebServer
import XCTest

/// Server-Sent Events: each event gets the next id and the same JSON as standard output; a
/// client resumes after its `Last-Event-ID`.
final class EventLogTests: XCTestCase {
    func testEventsAreFramedWithIdsAndStandardOutputsJSON() throws {
        let log = EventLog()
        let event = Event(t: 1.5, frame: 45, .blink(face: 1, start: 1.4, duration: 0.12))
        try log.write(event)
        let entries = log.entries(after: 0)
        XCTAssertEqual(entries.count, 1)
        XCTAssertEqual(entries[0].id, 1)
        XCTAssertEqual(entries[0].json + "\n", EventEncoder().line(event))
        XCTAssertEqual(EventLog.frame(entries[0]), "id: 1\ndata: \(entries[0].json)\n\n")
    }

    func testAReconnectingClientResumesAfterItsLastEventID() {
        let log = EventLog(capacity: 100)
        for n in 1...10 { log.append("{\"n\":\(n)}") }
        let start = log.start(lastEventID: "7")
        XCTAssertEqual(start, 7)
        XCTAssertEqual(log.entries(after: start).map(\.id), [8, 9, 10])
        XCTAssertEqual(log.entries(after: start).map(\.json), ["{\"n\":8}", "{\"n\":9}", "{\"n\":10}"])
        // A new client (no header), a garbled header or an id from before a restart start at now.
        XCTAssertEqual(log.start(lastEventID: nil), 10)
        XCTAssertEqual(log.start(lastEventID: "x"), 10)
        XCTAssertEqual(log.start(lastEventID: "5000"), 10)
        XCTAssertEqual(log.entries(after: 10), [])
        XCTAssertEqual(log.entries(after: 5000), [])
    }

    func testOnlyTheLastCapacityEventsAreKeptInOrder() {
        let log = EventLog(capacity: 4)
        for n in 1...11 { log.append("\(n)") }
        XCTAssertEqual(log.entries(after: 0).map(\.id), [8, 9, 10, 11])
        XCTAssertEqual(log.entries(after: 9).map(\.json), ["10", "11"])
        XCTAssertEqual(log.newestID, 11)
    }

    func testTheFilterIsApplied() throws {
        let log = EventLog(filter: try EventFilter(parsing: "blink"))
        try log.write(Event(t: 0, frame: 0, .nose(face: 1, x: 0.5, y: 0.5)))
        try log.write(Event(t: 0, frame: 0, .blink(face: 1, start: 0, duration: 0.1)))
        XCTAssertEqual(log.entries(after: 0).count, 1)
        XCTAssertEqual(log.newestID, 1)
    }
}
