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
public final class JSONLinesWriter: EventSink {
    public let fileDescriptor: Int32
    public let filter: EventFilter
    private let encoder = EventEncoder()
    private var buffer: [UInt8] = []

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

    public func write(_ event: Event) throws {
        guard filter.accepts(event.type) else { return }
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        try buffer.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = sysWrite(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    throw EventsError.writeFailed(descriptor: fileDescriptor, errno: errno)
                }
                offset += n
            }
        }
    }
}

#if canImport(Glibc)
private let sysWrite = Glibc.write
#elseif canImport(Darwin)
private let sysWrite = Darwin.write
#endif
