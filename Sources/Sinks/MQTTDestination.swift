/// Where `--mqtt` publishes: `mqtt://host[:port]/topic/levels` (port 1883 by default).
public struct MQTTDestination: Sendable, Equatable {
    public let host: String
    public let port: Int
    public let topic: String

    /// A URL that is not `mqtt://host[:port]/topic`.
    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public let description: String
    }

    public init(url: String) throws {
        let invalid = Invalid(description: "--mqtt \(url): expected mqtt://host[:port]/topic, e.g. mqtt://127.0.0.1:1883/facewatch/cam1")
        guard url.hasPrefix("mqtt://") else { throw invalid }
        let rest = url.dropFirst("mqtt://".count)
        guard let slash = rest.firstIndex(of: "/") else { throw invalid }
        let authority = rest[..<slash], topic = rest[rest.index(after: slash)...]
        guard !topic.isEmpty, !topic.contains("+"), !topic.contains("#") else { throw invalid }
        var host = Substring(authority), port = 1883
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let parsed = Int(after.dropFirst()) else { throw invalid }
                port = parsed
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            guard let parsed = Int(authority[authority.index(after: colon)...]) else { throw invalid }
            port = parsed
        }
        guard !host.isEmpty, (1...65535).contains(port) else { throw invalid }
        self.host = String(host)
        self.port = port
        self.topic = String(topic)
    }
}
