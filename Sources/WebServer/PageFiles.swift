import Foundation

/// The web pages (HTML, CSS, JavaScript) of `Sources/WebServer/Pages`, read once at start: no
/// CDN, no build step. Only these files are served, by name.
///
/// They are found next to the running executable, never through the build's absolute paths: a
/// build keeps them in `Facewatch_WebServer.resources/Pages` beside the binary, and an installed
/// binary (`PREFIX/bin/facewatch`) reads `PREFIX/share/facewatch/Pages`, where the README's
/// install puts them. Without them the server does not start: one line names both places and
/// the fix (SwiftPM's `Bundle.module` would stop the process instead).
public struct PageFiles: Sendable {
    public let files: [String: (type: String, body: Data)]

    /// Reads every file of `directory`, or of the first of ``folders(besides:)`` for the
    /// running executable that exists.
    public init(directory: URL? = nil) throws {
        let folder: URL
        if let directory {
            folder = directory
        } else {
            let executable = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])
            let candidates = Self.folders(besides: executable.resolvingSymlinksInPath())
            guard let found = candidates.first(where: Self.isFolder) else { throw PageFilesError.notFound(candidates) }
            folder = found
        }
        var files: [String: (String, Data)] = [:]
        do {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                files[name] = (Self.contentType(of: name), try Data(contentsOf: folder.appendingPathComponent(name)))
            }
        } catch {
            throw PageFilesError.unreadable(folder, (error as NSError).localizedDescription)
        }
        guard files["index.html"] != nil else { throw PageFilesError.incomplete(folder) }
        self.files = files
    }

    /// Where the pages of `executable` may be, in order: the build's resource bundle beside it,
    /// then the install's `share/facewatch/Pages` beside its `bin` folder.
    static func folders(besides executable: URL) -> [URL] {
        let folder = executable.deletingLastPathComponent()
        return [folder.appendingPathComponent("Facewatch_WebServer.resources/Pages"),
                folder.deletingLastPathComponent().appendingPathComponent("share/facewatch/Pages")]
    }

    private static func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    static func contentType(of name: String) -> String {
        switch name.split(separator: ".").last {
        case "html": return "text/html; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "js": return "text/javascript; charset=utf-8"
        case "svg": return "image/svg+xml"
        default: return "application/octet-stream"
        }
    }
}
