import Foundation

/// Set once, from any thread (a stream's consumer went away); read by the thread producing it.
///
/// `@unchecked Sendable`: its one stored `var` is read and written only with `lock` held.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var set = false

    var isSet: Bool {
        lock.lock()
        defer { lock.unlock() }
        return set
    }

    func raise() {
        lock.lock()
        set = true
        lock.unlock()
    }
}
