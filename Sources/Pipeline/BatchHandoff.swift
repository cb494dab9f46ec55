import Foundation

/// An ordered handoff from any number of producers to one consumer thread: producers `append`,
/// and the consumer `take`s everything queued so far in one batch, in the order it came.
///
/// The queue and the consumer's batch trade their storage at each `take`, so once both have
/// grown to the largest batch seen, handing items over allocates nothing (unlike a Dispatch
/// block per item).
///
/// `@unchecked Sendable`: every stored `var` is read and written only with `condition` locked
/// (a condition variable, which `Mutex` does not offer); items cross threads, so they are `Sendable`.
public final class BatchHandoff<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var queued: [Item] = []
    private var closed = false

    /// `capacity`: items the queue holds before it first has to grow.
    public init(capacity: Int) {
        queued.reserveCapacity(capacity)
    }

    /// Queues an item for the consumer.
    public func append(_ item: Item) {
        condition.lock()
        queued.append(item)
        condition.signal()
        condition.unlock()
    }

    /// No more items will come: the consumer takes what is queued, then `take` returns false.
    public func close() {
        condition.lock()
        closed = true
        condition.signal()
        condition.unlock()
    }

    /// Waits until items are queued, the handoff is closed, or `deadline` (seconds on
    /// `MonotonicClock.now()`) has passed, then moves the queued items into `batch`, which must be empty.
    /// Returns false once the handoff is closed and `batch` holds its last items.
    public func take(into batch: inout [Item], until deadline: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while queued.isEmpty && !closed {
            let wait = deadline - MonotonicClock.now()
            if wait <= 0 || !condition.wait(until: Date(timeIntervalSinceNow: wait)) { break }
        }
        swap(&queued, &batch)
        return !closed
    }
}
