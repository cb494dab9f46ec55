import Dispatch
import Events
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Serves the event stream to any number of local clients over a Unix domain socket: each
/// connected client receives every event line from the moment it connects. A client that
/// cannot keep up (its socket buffer is full) or has gone away is disconnected, so a slow
/// reader never blocks the pipeline. The socket file is created with mode 0600 by default.
///
/// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
public final class SocketEventServer: EventSink, @unchecked Sendable {
    /// A socket that could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    public let path: String
    private let listener: Int32
    private let acceptSource: DispatchSourceRead
    /// Signalled by the accept source's cancel handler, once Dispatch has let go of `listener`.
    private let released = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var clients: [Int32] = []
    private var acceptPaused = false
    private var closed = false
    private let encoder = EventEncoder()
    private let filter: EventFilter
    private var buffer: [UInt8] = []

    /// How long accepting pauses when the process is out of file descriptors (EMFILE/ENFILE):
    /// the waiting connection keeps the socket readable, so retrying at once would spin.
    public static let acceptBackoff = 0.5

    /// Listens on `path`. A stale socket file there (nobody answers) is replaced; a socket that
    /// answers (another daemon) and any other file are errors.
    public init(path: String, mode: mode_t = 0o600, filter: EventFilter = .all) throws {
        self.path = path
        self.filter = filter
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw SetupError(description: "\(path): socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw SetupError(description: "\(path): exists and is not a socket; not replacing it")
            }
            guard !Self.answers(&address) else {
                throw SetupError(description: "\(path): another process is serving this socket; not replacing it")
            }
            unlink(path)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else {
            let code = errno
            throw SetupError(description: "\(path): cannot create a socket (errno \(code): \(String(cString: strerror(code))))")
        }
        // Create the file with the wanted mode from the start: no moment with a looser one.
        let previous = umask(~mode & 0o777)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(previous)
        guard bound == 0, listen(fd, 16) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw SetupError(description: "\(path): cannot listen (errno \(code): \(String(cString: strerror(code))))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        listener = fd
        acceptSource = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "facewatch.socket"))
        acceptSource.setEventHandler { [weak self] in self?.acceptClients() }
        // Dispatch may still watch the descriptor until the cancel handler runs: closing it sooner
        // lets the next socket reuse its number while the old watch is being torn down, and
        // that socket's source then never fires (seen as a server that accepted nobody).
        acceptSource.setCancelHandler { [released] in
            Glibc.close(fd)
            released.signal()
        }
        acceptSource.resume()
    }

    /// Connected clients.
    public var clientCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return clients.count
    }

    /// Whether something accepts connections at `address` (a live server, not a stale file).
    private static func answers(_ address: inout sockaddr_un) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(probe, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        // ECONNREFUSED: a file with nobody listening. EAGAIN: a live server whose queue is full.
        return connected == 0 || errno == EAGAIN
    }

    private func acceptClients() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else {
                let code = errno
                if code == EINTR || code == ECONNABORTED { continue }
                if code == EMFILE || code == ENFILE || code == ENOBUFS || code == ENOMEM {
                    // Out of descriptors: the connection stays queued and the socket readable,
                    // so pause accepting instead of spinning; it resumes after the backoff.
                    lock.lock()
                    if !closed {
                        acceptPaused = true
                        acceptSource.suspend()
                    }
                    lock.unlock()
                    DispatchQueue.global().asyncAfter(deadline: .now() + Self.acceptBackoff) { [weak self] in
                        self?.resumeAccepting()
                    }
                }
                return
            }
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            lock.lock()
            clients.append(client)
            lock.unlock()
        }
    }

    /// Undoes the pause of an accept that ran out of descriptors (once; not after `close()`).
    private func resumeAccepting() {
        lock.lock()
        defer { lock.unlock() }
        if acceptPaused {
            acceptPaused = false
            acceptSource.resume()
        }
    }

    /// Sends the event to every client; clients that would block or have gone are dropped.
    public func write(_ event: Event) throws {
        guard filter.accepts(event.type) else { return }
        lock.lock()
        defer { lock.unlock() }
        guard !clients.isEmpty else { return }
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        clients.removeAll { client in
            let sent = buffer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent == buffer.count { return false }
            // Full buffer (a slow reader), a partial line, or a closed connection: drop the client
            // rather than wait for it or send it half a line later.
            Glibc.close(client)
            return true
        }
    }

    /// Stops listening, disconnects every client and removes the socket file. When it returns
    /// the listening descriptor is closed. Later calls do nothing.
    public func close() {
        lock.lock()
        let already = closed
        closed = true
        lock.unlock()
        guard !already else { return }
        resumeAccepting()  // a suspended source must not be cancelled and released
        acceptSource.cancel()
        released.wait()  // after this no accept runs, so no client can arrive behind the loop below
        lock.lock()
        for client in clients { Glibc.close(client) }
        clients.removeAll()
        lock.unlock()
        unlink(path)
    }
}
