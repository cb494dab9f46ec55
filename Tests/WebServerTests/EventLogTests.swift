import Events
import NIOCore
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
        let messages = try XCTUnwrap(log.messages(after: 0))
        XCTAssertEqual(String(buffer: messages.buffer), "id: 1\ndata: \(entries[0].json)\n\n")
        XCTAssertEqual(messages.through, 1)
    }

    func testMessagesAfterAnIdAreTheEventsSinceInOneBufferSharedByReadersAtThatId() throws {
        let log = EventLog(capacity: 8, byteCapacity: 40)
        for n in 1...12 { log.append("{\"n\":\(n)}") }  // 8 bytes each: 5 fit in 40, the ring wraps
        XCTAssertEqual(log.entries(after: 0).map(\.id), [8, 9, 10, 11, 12])
        let since9 = try XCTUnwrap(log.messages(after: 9))
        XCTAssertEqual(String(buffer: since9.buffer), "id: 10\ndata: {\"n\":10}\n\nid: 11\ndata: {\"n\":11}\n\nid: 12\ndata: {\"n\":12}\n\n")
        XCTAssertEqual(since9.through, 12)
        let again = try XCTUnwrap(log.messages(after: 9))
        XCTAssertEqual(again.buffer, since9.buffer)
        XCTAssertEqual(String(buffer: try XCTUnwrap(log.messages(after: 0)).buffer).components(separatedBy: "id: ").count - 1, 5,
                       "a reader from before the oldest kept gets what is kept")
        XCTAssertNil(log.messages(after: 12), "nothing new")
        XCTAssertNil(log.messages(after: 500), "an id from before a restart")
        log.append("{\"n\":13}")
        XCTAssertEqual(String(buffer: try XCTUnwrap(log.messages(after: 9)).buffer).components(separatedBy: "id: ").count - 1, 4,
                       "the shared buffer is not served once a new event came")
    }

    func testStoringAnEventWakesEverySubscribedStreamOnceHoweverManyCame() async throws {
        let log = EventLog()
        let first = log.arrivals.subscribe(), second = log.arrivals.subscribe()
        XCTAssertEqual(log.arrivals.count, 2)
        for n in 1...5 { log.append("\(n)") }
        var one = first.wakeUps.makeAsyncIterator(), two = second.wakeUps.makeAsyncIterator()
        let woken: Void? = await one.next()
        XCTAssertNotNil(woken)
        let alsoWoken: Void? = await two.next()
        XCTAssertNotNil(alsoWoken)
        first.finish()
        let ended: Void? = await one.next()
        XCTAssertNil(ended, "five events, one wake-up, then the end")
        XCTAssertEqual(log.arrivals.count, 1, "a finished subscription leaves")
        log.append("6")
        let woken6: Void? = await two.next()
        XCTAssertNotNil(woken6)
        second.finish()
        XCTAssertEqual(log.arrivals.count, 0)
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

    /// Within the byte budget the oldest events give way, and an event whose JSON runs past the
    /// end of the ring reads back whole, a two-byte character split there included. Checked after
    /// every one of 60 events of different lengths (the ring is written round several times).
    func testTheByteBudgetKeepsTheNewestEventsWhole() {
        let budget = 64
        let log = EventLog(capacity: 100, byteCapacity: budget)
        var written: [(id: Int, json: String)] = []
        var end = 0, splitCharacters = 0
        for n in 1...60 {
            let json = "{\"n\":\(n),\"m\":\"" + String(repeating: "×", count: n % 7) + "\"}"
            let bytes = Array(json.utf8)
            // Where the ring puts it: right after the previous event, wrapping round.
            if end + bytes.count > budget, bytes[budget - end] & 0xC0 == 0x80 { splitCharacters += 1 }
            end = (end + bytes.count) % budget
            written.append((log.append(json), json))
            var expected: [(id: Int, json: String)] = [], kept = 0
            for entry in written.reversed() {
                kept += entry.json.utf8.count
                if kept > budget { break }
                expected.insert(entry, at: 0)
            }
            let entries = log.entries(after: 0)
            XCTAssertEqual(entries.map(\.id), expected.map(\.id), "after event \(n)")
            XCTAssertEqual(entries.map(\.json), expected.map(\.json), "after event \(n)")
        }
        XCTAssertGreaterThan(splitCharacters, 0, "no event split a character at the end of the ring")
        // An event longer than the whole budget gets its id and is not kept.
        XCTAssertEqual(log.append(String(repeating: "x", count: budget + 1)), 61)
        XCTAssertEqual(log.entries(after: 60), [])
    }

    func testTheFilterIsApplied() throws {
        let log = EventLog(filter: try EventFilter(parsing: "blink"))
        try log.write(Event(t: 0, frame: 0, .nose(face: 1, x: 0.5, y: 0.5)))
        try log.write(Event(t: 0, frame: 0, .blink(face: 1, start: 0, duration: 0.1)))
        XCTAssertEqual(log.entries(after: 0).count, 1)
        XCTAssertEqual(log.newestID, 1)
    }
}
