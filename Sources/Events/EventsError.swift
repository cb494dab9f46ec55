#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Errors of the event stream.
public enum EventsError: Error, Equatable, CustomStringConvertible {
    /// An `--events` entry that is not an event type.
    case unknownEventType(String)
    /// An empty `--events` list (it would write nothing).
    case noEventTypes
    /// Writing a line failed (`errno`), e.g. the reader closed the pipe (EPIPE = 32 on Linux).
    case writeFailed(descriptor: Int32, errno: Int32)
    /// A line could not be written before the deadline given at shutdown (a stalled reader).
    case writeTimedOut(descriptor: Int32)

    public var description: String {
        switch self {
        case .unknownEventType(let name):
            let valid = EventType.allCases.map(\.rawValue).joined(separator: ", ")
            return "unknown event type '\(name)'; valid types: \(valid), all"
        case .noEventTypes:
            let valid = EventType.allCases.map(\.rawValue).joined(separator: ", ")
            return "no event types given (an empty list would write nothing); valid types: \(valid), all"
        case .writeFailed(let fd, let code):
            return "writing events to file descriptor \(fd) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .writeTimedOut(let fd):
            return "writing events to file descriptor \(fd) timed out: the reader stopped reading"
        }
    }

    /// True when the reader closed the pipe (EPIPE): a normal way for a consumer to stop.
    public var isBrokenPipe: Bool {
        if case .writeFailed(_, let code) = self { return code == EPIPE }
        return false
    }
}
