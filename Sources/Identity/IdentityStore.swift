import FaceDescriptor
import Foundation

/// The enrolled identities, kept in one JSON file that only its owner can read or write.
///
/// - The folder is created 0700 and the file 0600; a folder or file that others can read or
///   write is refused rather than used.
/// - Every change is written to a temporary file in the same folder, fsynced, renamed over the
///   store and the folder fsynced: a crash or a full disk leaves the previous store intact.
/// - A file that is not a valid store is an error, never an empty store.
/// - Only names, enrolment times and descriptors are stored, never images.
public struct IdentityStore {
    public let path: String
    public private(set) var identities: [Identity]

    private struct File: Codable {
        var format: String
        var version: Int
        var identities: [Identity]
    }

    static let format = "facewatch-identities"

    /// `${XDG_DATA_HOME:-$HOME/.local/share}/facewatch/identities/identities.json`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        let base: String
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            base = data
        } else {
            base = (environment["HOME"] ?? NSHomeDirectory()) + "/.local/share"
        }
        return base + "/facewatch/identities/identities.json"
    }

    /// Opens the store at `path`; a missing file is an empty store, anything unreadable an error.
    public init(path: String) throws {
        self.path = path
        var info = stat()
        guard stat(path, &info) == 0 else {
            guard errno == ENOENT else { throw IdentityError.io(path: path, reason: String(cString: strerror(errno))) }
            identities = []
            return
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw IdentityError.corruptStore(path: path, reason: "not a regular file") }
        if info.st_mode & 0o077 != 0 {
            throw IdentityError.insecure(path: path, reason: String(format: "the file's mode is %o; it must be 0600 (chmod 600 it)", info.st_mode & 0o777))
        }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw IdentityError.io(path: path, reason: (error as NSError).localizedDescription)
        }
        let file: File
        do {
            file = try JSONDecoder().decode(File.self, from: data)
        } catch {
            throw IdentityError.corruptStore(path: path, reason: Self.describe(error))
        }
        guard file.format == Self.format, file.version == 1 else {
            throw IdentityError.corruptStore(path: path, reason: "format \"\(file.format)\" version \(file.version), expected \"\(Self.format)\" version 1")
        }
        var seen = Set<String>()
        for identity in file.identities {
            guard Identity.isValidName(identity.name), seen.insert(identity.name).inserted else {
                throw IdentityError.corruptStore(path: path, reason: "bad or repeated name \"\(identity.name)\"")
            }
            guard !identity.descriptors.isEmpty,
                  identity.descriptors.allSatisfy({ $0.values.count == DescriptorNetwork.descriptorLength && $0.values.allSatisfy(\.isFinite) }) else {
                throw IdentityError.corruptStore(path: path, reason: "identity \"\(identity.name)\" has a malformed descriptor")
            }
        }
        identities = file.identities
    }

    public func identity(named name: String) -> Identity? {
        identities.first { $0.name == name }
    }

    /// Adds or replaces `identity` and saves.
    public mutating func enroll(_ identity: Identity) throws {
        guard Identity.isValidName(identity.name) else { throw IdentityError.invalidName(identity.name) }
        var updated = identities.filter { $0.name != identity.name }
        updated.append(identity)
        updated.sort { $0.name < $1.name }
        try save(updated)
        identities = updated
    }

    /// Removes `name` and saves.
    public mutating func remove(_ name: String) throws {
        guard identity(named: name) != nil else { throw IdentityError.unknownName(name) }
        let updated = identities.filter { $0.name != name }
        try save(updated)
        identities = updated
    }

    /// Writes `identities` atomically: temp file (0600) in the store's folder, fsync, rename, fsync folder.
    private func save(_ identities: [Identity]) throws {
        let directory = (path as NSString).deletingLastPathComponent
        try Self.prepareDirectory(directory.isEmpty ? "." : directory)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        do {
            data = try encoder.encode(File(format: Self.format, version: 1, identities: identities))
        } catch {
            throw IdentityError.io(path: path, reason: "cannot encode the store: \(error)")
        }
        let temporary = path + ".tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw IdentityError.io(path: temporary, reason: String(cString: strerror(errno))) }
        var ok = false
        defer {
            if !ok { unlink(temporary) }
        }
        let written = data.withUnsafeBytes { bytes -> Bool in
            var offset = 0
            while offset < bytes.count {
                let n = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        let writeError = errno
        guard written, fsync(fd) == 0 else {
            let reason = String(cString: strerror(written ? errno : writeError))
            close(fd)
            throw IdentityError.io(path: temporary, reason: "cannot write: \(reason); the previous store is unchanged")
        }
        guard close(fd) == 0 else {
            throw IdentityError.io(path: temporary, reason: "cannot write: \(String(cString: strerror(errno))); the previous store is unchanged")
        }
        guard rename(temporary, path) == 0 else {
            throw IdentityError.io(path: path, reason: "cannot replace the store: \(String(cString: strerror(errno)))")
        }
        ok = true
        let dirFD = open(directory.isEmpty ? "." : directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dirFD >= 0 {
            fsync(dirFD)
            close(dirFD)
        }
    }

    /// Creates the folder (and missing parents) 0700; refuses an existing folder others can use.
    private static func prepareDirectory(_ directory: String) throws {
        var info = stat()
        if stat(directory, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFDIR else { throw IdentityError.io(path: directory, reason: "not a folder") }
            if info.st_mode & 0o077 != 0 {
                throw IdentityError.insecure(path: directory, reason: String(format: "the folder's mode is %o; it must be 0700 (chmod 700 it)", info.st_mode & 0o777))
            }
            return
        }
        do {
            try FileManager.default.createDirectory(atPath: (directory as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
        } catch {
            throw IdentityError.io(path: directory, reason: "cannot create its parent: \((error as NSError).localizedDescription)")
        }
        guard mkdir(directory, 0o700) == 0 || errno == EEXIST else {
            throw IdentityError.io(path: directory, reason: "cannot create the folder: \(String(cString: strerror(errno)))")
        }
        chmod(directory, 0o700)  // whatever the umask
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted(let context): return "not valid JSON" + (context.codingPath.isEmpty ? "" : " at \(context.codingPath.map(\.stringValue).joined(separator: "."))")
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "wrong type at \(context.codingPath.map(\.stringValue).joined(separator: "."))"
        default: return "\(error)"
        }
    }
}
