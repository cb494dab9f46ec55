import Foundation

/// A one-slot handoff between a producer (capture) and a consumer (processing): the newest item
/// replaces one not yet taken, so the consumer is never behind the producer by more than one
/// item. Replaced items are counted as dropped.
///
/// `@unchecked Sendable`: every stored `var` is read and written only with `condition` locked
/// (a condition variable, which `Mutex` does not offer); items cross threads, so they are `Sendable`.
public final class FrameSlot<Item: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var item: Item?
    private var closed = false
    private var droppedCount = 0

    public init() {}

    /// Items replaced before the consumer took them.
    public var dropped: Int {
        condition.lock()
        defer { condition.unlock() }
        return droppedCount
    }

    /// Offers an item; returns true when it replaced one the consumer had not taken.
    @discardableResult
    public func put(_ newItem: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let replaced = item != nil
        if replaced { droppedCount += 1 }
        item = newItem
        condition.signal()
        return replaced
    }

    /// Waits for an item; nil once the slot is closed and empty.
    public func take() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        while item == nil && !closed { condition.wait() }
        let taken = item
        item = nil
        return taken
    }

    /// No more items will come; a waiting `take` returns what is left, then nil.
    public func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }
}
