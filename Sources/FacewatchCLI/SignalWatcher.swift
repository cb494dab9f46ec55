import Dispatch
import Foundation

/// Turns SIGINT and SIGTERM into a call on a queue (instead of killing the process), so the
/// daemon can stop capture, flush its events and exit 0. Keep the watcher alive while needed.
final class SignalWatcher {
    private var sources: [DispatchSourceSignal] = []

    init(_ handler: @escaping (Int32) -> Void) {
        for number in [SIGINT, SIGTERM] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            sources.append(source)
        }
    }

    deinit {
        for source in sources { source.cancel() }
    }
}
