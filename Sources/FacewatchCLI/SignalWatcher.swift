import Dispatch
import Foundation
import Recordings

/// Turns SIGINT and SIGTERM into a call on a queue (instead of killing the process), so the
/// daemon can stop capture, flush its events and exit 0. Keep the watcher alive while needed.
final class SignalWatcher: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let lock = NSLock()
    private var caught = false

    /// Whether SIGINT or SIGTERM arrived. Safe from any thread.
    var received: Bool {
        lock.lock()
        defer { lock.unlock() }
        return caught
    }

    init(_ handler: @escaping (Int32) -> Void = { _ in }) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [unowned self] in
                lock.lock()
                caught = true
                lock.unlock()
                handler(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
