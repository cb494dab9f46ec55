import Foundation
import Pipeline
import XCTest

final class BatchHandoffTests: XCTestCase {
    /// Items from two producers all arrive, each producer's in its order, and after `close` the
    /// consumer gets the last ones with `take` returning false.
    func testEveryItemArrivesInItsProducersOrder() {
        let handoff = BatchHandoff<Int>(capacity: 8)
        let producers = DispatchGroup()
        for producer in 0..<2 {
            DispatchQueue.global().async(group: producers) {
                for i in 0..<5_000 { handoff.append(producer * 1_000_000 + i) }
            }
        }
        DispatchQueue.global().async {
            producers.wait()
            handoff.close()
        }
        var received: [Int] = [], batch: [Int] = []
        var open = true
        while open {
            open = handoff.take(into: &batch, until: MonotonicClock.now() + 10)
            received += batch
            batch.removeAll(keepingCapacity: true)
        }
        XCTAssertEqual(received.filter { $0 < 1_000_000 }, Array(0..<5_000))
        XCTAssertEqual(received.filter { $0 >= 1_000_000 }, (0..<5_000).map { 1_000_000 + $0 })
    }

    /// With nothing queued, `take` returns at the deadline with an empty batch (the writer thread
    /// writes its `stats` lines then).
    func testTakeReturnsAtTheDeadline() {
        let handoff = BatchHandoff<Int>(capacity: 8)
        var batch: [Int] = []
        let start = MonotonicClock.now()
        XCTAssertTrue(handoff.take(into: &batch, until: start + 0.2))
        XCTAssertEqual(batch, [])
        XCTAssertGreaterThanOrEqual(MonotonicClock.now() - start, 0.19)
        XCTAssertLessThan(MonotonicClock.now() - start, 5)
    }

    /// The queue and the batch trade storage: once both have room, every batch lives in one of
    /// the same two buffers.
    func testTheQueueAndTheBatchTradeStorage() {
        let handoff = BatchHandoff<Int>(capacity: 64)
        var batch: [Int] = []
        batch.reserveCapacity(64)
        var buffers = Set<Int>()
        for round in 0..<20 {
            for i in 0..<(10 + round) { handoff.append(i) }
            XCTAssertTrue(handoff.take(into: &batch, until: MonotonicClock.now() + 10))
            XCTAssertEqual(batch, Array(0..<(10 + round)))
            batch.withUnsafeBufferPointer { buffers.insert(Int(bitPattern: $0.baseAddress)) }
            batch.removeAll(keepingCapacity: true)
        }
        XCTAssertEqual(buffers.count, 2)
    }
}
