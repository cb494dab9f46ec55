import Foundation

/// Wakes the streaming responses when there is something new to send (an event logged, a video
/// picture drawn), instead of each polling on a timer: every subscriber gets an `AsyncStream`
/// that yields once per `notify()`, coalesced (a subscriber busy writing finds one wake-up
/// waiting, however many came meanwhile), so a thousand idle clients cost nothing and a busy
/// one never queues up wake-ups.
///
/// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
public final class ChangeNotifier: @unchecked Sendable {
    /// One subscriber's wake-ups; `finish()` ends them (the stream then returns nil), as
    /// cancelling the task that reads them does. Ended subscriptions unregister themselves.
    public struct Subscription: Sendable {
        public let wakeUps: AsyncStream<Void>
        private let continuation: AsyncStream<Void>.Continuation

        init(wakeUps: AsyncStream<Void>, continuation: AsyncStream<Void>.Continuation) {
            self.wakeUps = wakeUps
            self.continuation = continuation
        }

        public func finish() {
            continuation.finish()
        }
    }

    private let lock = NSLock()
    private var subscribers: [Int: AsyncStream<Void>.Continuation] = [:]
    private var nextKey = 0

    public init() {}

    /// Subscribers now.
    public var count: Int {
        lock.lock()
        defer { lock.unlock() }
        return subscribers.count
    }

    /// A new subscription; it sees every `notify()` from now on.
    public func subscribe() -> Subscription {
        let (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        lock.lock()
        let key = nextKey
        nextKey += 1
        subscribers[key] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(key) }
        return Subscription(wakeUps: stream, continuation: continuation)
    }

    /// Wakes every subscriber.
    public func notify() {
        lock.lock()
        defer { lock.unlock() }
        for continuation in subscribers.values { continuation.yield() }
    }

    private func unsubscribe(_ key: Int) {
        lock.lock()
        subscribers[key] = nil
        lock.unlock()
    }
}
