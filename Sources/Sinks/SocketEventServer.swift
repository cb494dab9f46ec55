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
public final class SocketEventServer: EventSink, @unchecked Sendable {
    /// A socket that could not be set up.
    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    public let path: String
    private let listener: Int32
    private let acceptSource: DispatchSourceRead
    private let lock = NSLock()
    private var clients: [Int32] = []
    private let encoder = EventEncoder()
    private let filter: EventFilter
    private var buffer: [UInt8] = []

    /// Listens on `path` (an existing socket file there is replaced; any other file is an error).
    public init(path: String, mode: mode_t = 0o600, filter: EventFilter = .all) throws {
        self.path = path
        self.filter = filter
        var info = stat()
        if lstat(path, &info) == 0 {
            guard (info.st_mode & S_IFMT) == S_IFSOCK else {
                throw SetupError(description: "\(path): exists and is not a socket; not replacing it")
            }
            unlink(path)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard path.utf8.count < capacity else { throw SetupError(description: "\(path): socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: path.utf8)
            raw[path.utf8.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SetupError(description: "\(path): cannot create a socket (errno \(errno))") }
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
        acceptSource.resume()
    }

    /// Connected clients.
    public var clientCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return clients.count
    }

    private func acceptClients() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
            lock.lock()
            clients.append(client)
            lock.unlock()
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

    /// Stops listening, disconnects every client and removes the socket file.
    public func close() {
        acceptSource.cancel()
        lock.lock()
        for client in clients { Glibc.close(client) }
        clients.removeAll()
        lock.unlock()
        Glibc.close(listener)
        unlink(path)
    }
}
