import Foundation

/// The process's resident set size, read from /proc/self/statm.
public enum ResidentMemory {
    /// Resident bytes, or 0 where /proc is not available.
    public static func current() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
