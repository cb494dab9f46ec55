import Dispatch

/// A value made on another thread (a global dispatch queue) while its owner does other work;
/// `value()` waits for it and returns it, or throws what making it threw. For loading one model
/// while another loads.
final class BackgroundLoad<Value>: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once by the making thread before `done` is left; read only after `done` is waited for.
    private var result: Result<Value, any Error>?

    init(_ make: @escaping @Sendable () throws -> Value) {
        done.enter()
        DispatchQueue.global().async {
            self.result = Result(catching: make)
            self.done.leave()
        }
    }

    /// Waits for the value; rethrows the error that making it threw.
    func value() throws -> Value {
        done.wait()
        return try result!.get()
    }
}
