/// Why the identity store could not be read or written, or a name not used.
public enum IdentityError: Error, Equatable, CustomStringConvertible {
    /// The store file exists but is not a valid store (never treated as empty).
    case corruptStore(path: String, reason: String)
    /// The store's folder or file is readable or writable by others.
    case insecure(path: String, reason: String)
    case io(path: String, reason: String)
    case unknownName(String)
    case invalidName(String)
    /// The face is already enrolled under another name (distance below the threshold).
    case alreadyEnrolled(name: String, distance: Double)
    /// No usable face where one was needed.
    case face(String)

    public var description: String {
        switch self {
        case .corruptStore(let path, let reason):
            return "identity store \(path) is corrupt (\(reason)); restore it from a backup or remove it to start empty"
        case .insecure(let path, let reason):
            return "identity store \(path): \(reason)"
        case .io(let path, let reason):
            return "identity store \(path): \(reason)"
        case .unknownName(let name):
            return "no identity named \"\(name)\" is enrolled"
        case .invalidName(let name):
            return "invalid identity name \"\(name)\": use 1–64 letters, digits, '.', '_', '-' or '@'"
        case .alreadyEnrolled(let name, let distance):
            return "this face is already enrolled as \"\(name)\" (distance \(String(format: "%.3f", distance))); use --force to enroll it anyway"
        case .face(let reason):
            return reason
        }
    }
}
