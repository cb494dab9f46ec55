import Sinks
import XCTest

/// The MQTT publisher's queue: bounded by queued plus unacknowledged messages, nothing below the
/// bound dropped, everything past it counted as lost; and the `--mqtt` URL.
final class MQTTQueueTests: XCTestCase {
    func testNothingBelowTheBoundIsLostAndWhatIsPastItIsCounted() {
        var queue = OutboundQueue<Int>(limit: 5)
        for n in 0..<8 { queue.offer(n) }
        XCTAssertEqual(queue.queued, 5)
        XCTAssertEqual(queue.lost, 3)
        var taken: [Int] = []
        while let n = queue.take() { taken.append(n) }
        XCTAssertEqual(taken, [0, 1, 2, 3, 4], "in order, none of the first five lost")
        // Handed over but unacknowledged still counts against the bound.
        XCTAssertEqual(queue.inFlight, 5)
        XCTAssertFalse(queue.offer(99))
        XCTAssertEqual(queue.lost, 4)
        queue.acknowledged(2)
        XCTAssertTrue(queue.offer(5))
        XCTAssertTrue(queue.offer(6))
        XCTAssertFalse(queue.offer(7))
        XCTAssertEqual(queue.lost, 5)
    }

    func testARefusedMessageGoesBackToTheFront() {
        var queue = OutboundQueue<String>(limit: 10)
        for word in ["a", "b", "c"] { queue.offer(word) }
        let first = queue.take()!
        queue.putBack(first)
        XCTAssertEqual(queue.inFlight, 0)
        XCTAssertEqual([queue.take(), queue.take(), queue.take(), queue.take()], ["a", "b", "c", nil])
    }

    func testALongRunKeepsOrderAcrossCompaction() {
        var queue = OutboundQueue<Int>(limit: 5000)
        var expected = 0
        for n in 0..<10_000 {
            queue.offer(n)
            if n % 3 != 0, let taken = queue.take() {
                XCTAssertEqual(taken, expected)
                expected += 1
                queue.acknowledged(1)
            }
        }
        while let taken = queue.take() {
            XCTAssertEqual(taken, expected)
            expected += 1
        }
        XCTAssertEqual(expected, 10_000)
        XCTAssertEqual(queue.lost, 0)
    }

    func testMQTTURLs() throws {
        let plain = try MQTTDestination(url: "mqtt://127.0.0.1:1884/facewatch/cam1")
        XCTAssertEqual([plain.host, "\(plain.port)", plain.topic], ["127.0.0.1", "1884", "facewatch/cam1"])
        XCTAssertEqual(try MQTTDestination(url: "mqtt://broker.local/events").port, 1883)
        XCTAssertEqual(try MQTTDestination(url: "mqtt://[::1]:1990/t").host, "::1")
        for bad in ["http://h/t", "mqtt://h", "mqtt://h/", "mqtt://h:x/t", "mqtt://:1883/t", "mqtt://h/t/#", "mqtt://h:0/t"] {
            XCTAssertThrowsError(try MQTTDestination(url: bad), bad)
        }
    }
}
