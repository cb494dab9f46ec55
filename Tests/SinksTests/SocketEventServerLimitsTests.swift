import Events
import Foundation
import Sinks
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A second daemon on a live socket (reliability finding D9) and a server out of file
/// descriptors (D10).
extension SocketEventServerTests {
    func testASecondServerRefusesASocketThatAnswersAndReplacesAStaleOne() throws {
        let first = try SocketEventServer(path: path)
        XCTAssertThrowsError(try SocketEventServer(path: path)) { error in
            XCTAssertTrue("\(error)".contains("another process is serving this socket"), "\(error)")
        }
        first.close()
        // A socket file nobody listens on (a daemon killed with SIGKILL leaves one) is replaced.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        close(stale)
        let second = try SocketEventServer(path: path)
        second.close()
    }

    func testRunningOutOfDescriptorsDoesNotSpin() throws {
        let server = try SocketEventServer(path: path)
        defer { server.close() }
        let waiting = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(waiting) }
        // Use up every descriptor, then connect: the server's accept fails with EMFILE while
        // the connection waits in the queue, which keeps the listening socket readable.
        var limit = rlimit()
        getrlimit(Self.descriptors, &limit)
        let saved = limit
        limit.rlim_cur = 512
        XCTAssertEqual(setrlimit(Self.descriptors, &limit), 0)
        var held: [Int32] = []
        while true {
            let fd = open("/dev/null", O_RDONLY)
            if fd < 0 { break }
            held.append(fd)
        }
        defer {
            for fd in held { close(fd) }
            var restore = saved
            setrlimit(Self.descriptors, &restore)
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: path.utf8) }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(waiting, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(connected, 0)
        let before = cpuSeconds()
        Thread.sleep(forTimeInterval: 1)
        let used = cpuSeconds() - before
        XCTAssertLessThan(used, 0.3, "accept backs off instead of spinning (\(used) s of CPU in 1 s)")
        // Descriptors come back: the waiting client is accepted.
        for fd in held { close(fd) }
        held = []
        waitForClients(server, 1)
    }

    private static let descriptors = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)

    private func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
