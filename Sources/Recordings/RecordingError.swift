/// A recording that cannot be opened or written: a missing file, a bad line, an impossible value.
/// The description names the file (and line) and the problem.
public struct RecordingError: Error, Equatable, CustomStringConvertible {
    public let path: String
    /// 1-based line in `frames.jsonl`, when the problem is on one line.
    public let line: Int?
    public let problem: String

    public init(path: String, line: Int? = nil, problem: String) {
        self.path = path
        self.line = line
        self.problem = problem
    }

    public var description: String {
        if let line { return "\(path):\(line): \(problem)" }
        return "\(path): \(problem)"
    }
}
