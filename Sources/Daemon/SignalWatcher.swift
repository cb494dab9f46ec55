import Dispatch
import Foundation

/// Turns signals (SIGINT and SIGTERM unless told otherwise) into a call on a queue and a flag,
/// instead of their default action: the daemon stops capture, flushes its events and exits 0;
/// `loopback` starts playing on SIGUSR1. Keep the watcher alive while needed.
///
/// `@unchecked Sendable`: `caught` is read and written only with `lock` held; the signal
/// sources (not annotated `Sendable` by Dispatch) are set up in `init` and cancelled in `deinit`.
public final class SignalWatcher: @unchecked Sendable {
    private let sources: [DispatchSourceSignal]
    private let lock = NSLock()
    private var caught = false

    /// Whether one of the signals arrived. Safe from any thread.
    public var received: Bool {
        lock.lock()
        defer { lock.unlock() }
        return caught
    }

    /// Starts watching `numbers`; `handler` runs on a global queue with the signal's number.
    public init(signals numbers: [Int32] = [SIGINT, SIGTERM], _ handler: @escaping @Sendable (Int32) -> Void = { _ in }) {
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
