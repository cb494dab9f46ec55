/// Who may use the web server. Binding to anything but a loopback address needs a token (frames
/// of a face and liveness verdicts are personal data): without one the server refuses to start.
/// With a token, every request must carry it as `Authorization: Bearer TOKEN` or the
/// `facewatch_token` cookie (which `?token=TOKEN` on a page sets, so a browser can open the page).
public struct AccessPolicy: Sendable, Equatable {
    /// The address and port to listen on.
    public let host: String
    public let port: Int
    public let token: String?

    /// `host:port`, an IPv6 host in brackets (`[::1]:8080`), as in a URL.
    public func address(port: Int) -> String {
        "\(host.contains(":") ? "[\(host)]" : host):\(port)"
    }

    /// The cookie that carries the token.
    public static let cookieName = "facewatch_token"

    /// A bind address that cannot be used, or a public one without a token.
    public struct RefusedError: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    /// Parses `bind` (`host:port`, `[v6]:port`) and checks that a non-loopback address has a token.
    public init(bind: String, token: String?) throws {
        let host: Substring, portText: Substring
        if bind.hasPrefix("["), let close = bind.firstIndex(of: "]") {
            host = bind[bind.index(after: bind.startIndex)..<close]
            portText = bind[bind.index(after: close)...].drop { $0 == ":" }
        } else if let colon = bind.lastIndex(of: ":") {
            host = bind[..<colon]
            portText = bind[bind.index(after: colon)...]
        } else {
            throw RefusedError(description: "--http \(bind): expected host:port, e.g. 127.0.0.1:8080")
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else {
            throw RefusedError(description: "--http \(bind): expected host:port, e.g. 127.0.0.1:8080")
        }
        if token?.isEmpty == true { throw RefusedError(description: "the token must not be empty") }
        self.host = String(host)
        self.port = port
        self.token = token
        if !Self.isLoopback(self.host) && token == nil {
            throw RefusedError(description: "refusing to serve on \(bind) without a token: anything but loopback "
                + "(127.0.0.1, ::1) needs --token or http.token, since the page shows faces and liveness verdicts")
        }
    }

    /// Whether `host` names this machine only: 127.0.0.0/8, ::1 or localhost.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts[0] == "127" && parts.allSatisfy { UInt8($0) != nil }
    }

    /// Whether a request with these headers may pass: always without a token; with one, when the
    /// bearer token, the cookie or the `token` query parameter matches it.
    public func allows(authorization: String?, cookie: String?, query: String? = nil) -> Bool {
        guard let token else { return true }
        let offered = [authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }, cookie, query]
        return offered.contains { $0.map { Self.equalInConstantTime($0, token) } ?? false }
    }

    /// Compares without stopping at the first difference, so timing tells nothing about the token.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        var difference = UInt8(x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }
}
