import Foundation

/// The web pages (HTML, CSS, JavaScript) from the module's `Pages` folder, read once at start:
/// no CDN, no build step. Only these files are served, by name.
public struct PageFiles: Sendable {
    public let files: [String: (type: String, body: Data)]

    /// Reads every file of `directory` (default: the module's bundled `Pages`).
    public init(directory: URL? = nil) throws {
        guard let folder = directory ?? Bundle.module.url(forResource: "Pages", withExtension: nil) else {
            throw CocoaError(.fileNoSuchFile)
        }
        var files: [String: (String, Data)] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let body = try Data(contentsOf: folder.appendingPathComponent(name))
            files[name] = (Self.contentType(of: name), body)
        }
        self.files = files
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
