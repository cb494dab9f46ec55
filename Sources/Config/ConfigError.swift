/// A configuration file that cannot be used: unreadable, not JSON, an unknown key, or a bad value.
/// The description names the file and the key.
public struct ConfigError: Error, Equatable, CustomStringConvertible {
    public let path: String
    public let key: String
    public let problem: String

    public init(path: String, key: String, problem: String) {
        self.path = path
        self.key = key
        self.problem = problem
    }

    public var description: String {
        key.isEmpty ? "\(path): \(problem)" : "\(path): \(key): \(problem)"
    }
}
