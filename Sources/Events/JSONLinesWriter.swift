#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes events as JSON lines (`EventEncoder`) to a file descriptor, one `write(2)` per line so
/// every line reaches the reader as soon as it happens (no user-space buffering to flush).
/// Events the filter rejects are skipped. The line buffer is reused, so writing allocates
/// nothing once it has grown to the longest line.
///
/// A reader that closes the pipe makes `write` throw `EventsError.writeFailed` with EPIPE,
/// provided the process ignores SIGPIPE (`signal(SIGPIPE, SIG_IGN)`); otherwise the signal ends it.
///
/// A reader that stops reading blocks the writer (back-pressure) until `giveUp(after:)` is
/// called, e.g. at shutdown: from then on a line that cannot be written within that many
/// seconds throws `EventsError.writeTimedOut`, so a stalled reader cannot hold the process.
///
/// `@unchecked Sendable`: the line buffer is used only with `writeLock` held (so lines from
/// several threads never interleave), and the deadline only with `lock` held (`giveUp` must not
/// wait for a blocked write).
public final class JSONLinesWriter: EventSink, @unchecked Sendable {
    public let fileDescriptor: Int32
    public let filter: EventFilter
    private let encoder = EventEncoder()
    private let writeLock = NSLock()
    /// The line being written (under `writeLock`).
    private var buffer: [UInt8] = []
    private let lock = NSLock()
    /// When blocked writes give up (under `lock`).
    private var deadline = Double.infinity
    /// PIPE_BUF on Linux: a pipe with room takes a write this size without blocking.
    private static let atomicPipeWrite = 4096

    /// Writes to `fileDescriptor` (not closed by the writer).
    public init(fileDescriptor: Int32, filter: EventFilter = .all) {
        self.fileDescriptor = fileDescriptor
        self.filter = filter
        buffer.reserveCapacity(4096)
    }

    /// Writes to a `FileHandle`, e.g. `FileHandle.standardOutput` (not closed by the writer).
    public convenience init(fileHandle: FileHandle, filter: EventFilter = .all) {
        self.init(fileDescriptor: fileHandle.fileDescriptor, filter: filter)
    }

    /// From now on, writes that cannot complete within `seconds` fail. Safe from any thread.
    public func giveUp(after seconds: Double) {
        lock.lock()
        deadline = min(deadline, Self.now() + seconds)
        lock.unlock()
    }

    public func write(_ event: Event) throws {
        guard filter.accepts(event.type) else { return }
        writeLock.lock()
        defer { writeLock.unlock() }
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        try buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                try waitUntilWritable()
                // At most PIPE_BUF bytes once the descriptor is writable: a pipe takes them whole.
                let n = sysWrite(fileDescriptor, raw.baseAddress! + offset, min(raw.count - offset, Self.atomicPipeWrite))
                if n < 0 {
                    if errno == EINTR || errno == EAGAIN { continue }
                    throw EventsError.writeFailed(descriptor: fileDescriptor, errno: errno)
                }
                offset += n
            }
        }
    }

    /// Waits for the descriptor to take data, in slices short enough to notice `giveUp(after:)`.
    /// A descriptor that takes data now (a file, a pipe with room) never times out: only waiting
    /// past the deadline does.
    private func waitUntilWritable() throws {
        var entry = pollfd(fd: fileDescriptor, events: Int16(POLLOUT), revents: 0)
        var wait = 0.0
        while true {
            if wait > 0 {
                let left = withLock { deadline } - Self.now()
                if left <= 0 { throw EventsError.writeTimedOut(descriptor: fileDescriptor) }
                wait = min(left, 0.1)
            }
            let ready = poll(&entry, 1, wait > 0 ? Int32(wait * 1000) + 1 : 0)
            wait = 0.1
            // POLLERR/POLLHUP: let write(2) report what happened (EPIPE for a closed pipe).
            if ready > 0 || (ready < 0 && errno != EINTR) { return }
        }
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    private static func now() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}

/// write(2), which the class's own `write` hides.
@inline(__always)
private func sysWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    Glibc.write(descriptor, bytes, count)
    #elseif canImport(Darwin)
    Darwin.write(descriptor, bytes, count)
    #endif
}
