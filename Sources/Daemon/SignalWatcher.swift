import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a call on a queue (instead of killing the process), so the
/// daemon can stop capture, flush its events and exit 0. Keep the watcher alive while needed.
///
/// `@unchecked Sendable`: `caught` is read and written only with `lock` held; the signal
/// sources (not annotated `Sendable` by Dispatch) are set up in `init` and cancelled in `deinit`.
public final class SignalWatcher: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]
    private let lock = NSLock()
    private var caught = false

    /// Whether SIGINT or SIGTERM arrived. Safe from any thread.
    public var received: Bool {
        lock.lock()
        defer { lock.unlock() }
        return caught
    }

    /// Starts watching; `handler` runs on a global queue with the signal's number.
    public init(_ handler: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let numbers = [SIGINT, SIGTERM]
        sources = numbers.map { number in
            signal(number, SIG_IGN)
            return DispatchSource.makeSignalSource(signal: number, queue: .global())
        }
        for (number, source) in zip(numbers, sources) {
            source.setEventHandler { [unowned self] in
                lock.lock()
                caught = true
                lock.unlock()
                handler(number)
            }
            source.resume()
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
