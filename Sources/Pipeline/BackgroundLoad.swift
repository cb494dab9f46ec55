import Dispatch
import Foundation

/// A value made on a thread of its own while its owner does other work; `value()` waits for it
/// and returns it, or throws what making it threw. For loading one model while another loads.
/// (Its own thread rather than a global dispatch queue: the landmark model's reader puts half of
/// its work on that queue, and must not wait behind this load for a worker.)
///
/// `@unchecked Sendable`: `result` is written once by the making thread before `done` is
/// signalled and read only after `done.wait()`; the value crosses threads, so it is `Sendable`.
final class BackgroundLoad<Value: Sendable>: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    /// Written once by the making thread before `done` is signalled; read only after the wait.
    private var result: Result<Value, any Error>?

    init(_ make: @escaping @Sendable () throws -> Value) {
        Thread {
            self.result = Result(catching: make)
            self.done.signal()
        }.start()
    }

    /// Waits for the value; rethrows the error that making it threw. Call once.
    func value() throws -> Value {
        done.wait()
        return try result!.get()
    }
}
