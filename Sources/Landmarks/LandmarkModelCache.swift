import Foundation

/// A folder of ready-to-map copies of landmark models: a model's splits, offsets and leaf values
/// as they sit in memory, so that a later start maps the file instead of converting 99.7 MB of
/// dlib's six-byte floats into 64 MB of new memory (most of a start-up's time).
///
/// A copy is used only when its header names the model file's device, inode, size and
/// modification time, its sizes agree with the model's shape, its checksum matches and its
/// split and offset indices are in range; otherwise the model is read from its `.dat` file as
/// before and the copy written again. Writing goes to a temporary file renamed into place, so a
/// reader never sees half a copy, and a running process keeps the copy it mapped. A folder that
/// cannot be written only costs the speed-up. (Like any mapped file, a copy must not be cut
/// short in place while a process has it mapped; Facewatch itself only ever replaces it.)
public struct LandmarkModelCache: Sendable, Equatable {
    /// Where the copies live.
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// `${XDG_CACHE_HOME:-$HOME/.cache}/facewatch`, or nil when neither is set.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> LandmarkModelCache? {
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") {
            return LandmarkModelCache(directory: cache + "/facewatch")
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return LandmarkModelCache(directory: home + "/.cache/facewatch")
        }
        return nil
    }

    /// The copy of the model at `source` (one file per model path).
    public func file(for source: String) -> String {
        let absolute = source.hasPrefix("/") ? source : FileManager.default.currentDirectoryPath + "/" + source
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325  // FNV-1a
        for byte in absolute.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return directory + "/shape_predictor-" + String(hash, radix: 16) + ".fwmodel"
    }

    /// Deletes `file`'s temporary files (`file.PID.tmp`) left by writers that no longer run (a
    /// process killed while writing its copy), so they do not pile up.
    func removeAbandonedTemporaryFiles(of file: String) {
        let name = (file as NSString).lastPathComponent + "."
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for entry in entries where entry.hasPrefix(name) && entry.hasSuffix(".tmp") {
            guard let pid = Int32(entry.dropFirst(name.count).dropLast(4)) else { continue }
            if kill(pid, 0) != 0 && errno == ESRCH {
                unlink(directory + "/" + entry)
            }
        }
    }
}
