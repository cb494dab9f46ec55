import Foundation

/// A dlib model file that could not be loaded. The description is one line naming the path, what
/// is wrong, and how to get the standard model.
public struct DlibModelError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// No file at the path (or it cannot be opened).
        case missing(String)
        /// The file is not the kind of model expected, or is inconsistent inside.
        case malformed(String)
        /// The file ends before the model does.
        case truncated(atByte: Int)
    }

    public let path: String
    public let reason: Reason
    public let kind: DlibModelKind

    public init(path: String, reason: Reason, kind: DlibModelKind) {
        self.path = path
        self.reason = reason
        self.kind = kind
    }

    public var description: String {
        let what: String
        switch reason {
        case .missing(let detail): what = "cannot read the \(kind.name) (\(detail))"
        case .malformed(let detail): what = "not a \(kind.format): \(detail)"
        case .truncated(let offset): what = "\(kind.name) is truncated (ends at byte \(offset))"
        }
        return "\(path): \(what); \(kind.fix)"
    }
}

/// Which dlib model a file should hold, for error messages, and how its file is read: mapped
/// into memory, parsed, and every parse failure turned into a `DlibModelError` naming the path.
public struct DlibModelKind: Equatable, Sendable {
    /// What the model is, e.g. "landmark model".
    public let name: String
    /// The dlib type the file must hold, e.g. "dlib shape_predictor model".
    public let format: String
    /// How to get the standard model.
    public let fix: String

    public init(name: String, format: String, fix: String) {
        self.name = name
        self.format = format
        self.fix = fix
    }

    /// The file's bytes, mapped; a missing or unreadable file is a `DlibModelError`.
    public func contents(of path: String) throws -> Data {
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            let detail = FileManager.default.fileExists(atPath: path) ? "unreadable" : "no such file"
            throw DlibModelError(path: path, reason: .missing(detail), kind: self)
        }
    }

    /// Runs `parse` on the bytes of `data`, turning a `DlibDeserializer.Failure` into a
    /// `DlibModelError` naming `path`.
    public func parse<Model>(_ data: Data, path: String, _ parse: (UnsafeRawBufferPointer) throws -> Model) throws -> Model {
        do {
            return try data.withUnsafeBytes(parse)
        } catch let failure as DlibDeserializer.Failure {
            switch failure {
            case .truncated(let offset): throw DlibModelError(path: path, reason: .truncated(atByte: offset), kind: self)
            case .malformed(let detail): throw DlibModelError(path: path, reason: .malformed(detail), kind: self)
            }
        }
    }
}
