/// A landmark model that could not be loaded. The description is one line naming the path,
/// what is wrong, and the Debian package that installs the standard model.
public struct ModelError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// No file at the path (or it cannot be opened).
        case missing(String)
        /// The file is not a dlib shape predictor, or is inconsistent inside.
        case malformed(String)
        /// The file ends before the model does.
        case truncated(atByte: Int)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let what: String
        switch reason {
        case .missing(let detail): what = "cannot read the landmark model (\(detail))"
        case .malformed(let detail): what = "not a dlib shape_predictor model: \(detail)"
        case .truncated(let offset): what = "landmark model is truncated (ends at byte \(offset))"
        }
        return "\(path): \(what); the 68-point model comes with `apt-get install libdlib-data`"
    }
}
