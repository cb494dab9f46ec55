import Dispatch
import Foundation

/// A second thread that runs its owner's job on request: the owner stores the job's inputs where
/// the job reads them, calls `begin()`, does its own share of the work, and `wait()`s for the job.
/// The thread is started once and waits on a semaphore between jobs, so a job allocates nothing;
/// the semaphores order the owner's writes before the job and the job's writes before `wait()`
/// returns. The thread ends with `stop()`, which the owner calls when it is released.
///
/// `@unchecked Sendable`: its only mutable state, `stopping`, is written by the owner before
/// `start.signal()` and read by the thread after `start.wait()`, so the semaphore orders them;
/// the job's own state is ordered the same way (see above).
public final class HelperThread: @unchecked Sendable {
    private let start = DispatchSemaphore(value: 0), done = DispatchSemaphore(value: 0)
    private let job: @Sendable () -> Void
    private let name: String
    private var stopping = false

    /// Starts a thread named `name` (also the kernel's name for it, as `top -H` and `perf` show)
    /// that runs `job` once per `begin()` (capture the owner `unowned`: the owner keeps the
    /// helper, and stops it before it goes).
    public init(name: String, job: @escaping @Sendable () -> Void) {
        self.job = job
        self.name = name
        // A started thread keeps itself alive until `serve` returns.
        let thread = Thread { [unowned self] in self.serve() }
        thread.name = name
        thread.start()
    }

    /// Runs the job once on the thread; `wait()` returns when it has finished.
    public func begin() {
        start.signal()
    }

    /// Waits for the job started by `begin()`.
    public func wait() {
        done.wait()
    }

    /// Ends the thread (no job may be under way).
    public func stop() {
        stopping = true
        start.signal()
        done.wait()
    }

    private func serve() {
        #if os(Linux)
        // The kernel's name for the thread (`top -H`, `perf`, /proc/PID/task/*/comm), which a
        // thread may set through its own comm file: at most 15 bytes.
        try? String(decoding: name.utf8.prefix(15), as: UTF8.self)
            .write(toFile: "/proc/thread-self/comm", atomically: false, encoding: .utf8)
        #endif
        while true {
            start.wait()
            if stopping { break }
            job()
            done.signal()
        }
        done.signal()
    }
}
