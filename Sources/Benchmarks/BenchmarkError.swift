/// Why a benchmark could not run (no recording, no face to measure, a folder without frames),
/// in one line.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
