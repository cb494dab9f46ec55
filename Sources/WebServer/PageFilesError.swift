import Foundation

/// Why the web pages could not be read; the description is one line naming the folders.
public enum PageFilesError: Error, Equatable, CustomStringConvertible {
    /// None of the folders looked in exists.
    case notFound([URL])
    /// The folder or a file in it cannot be read.
    case unreadable(URL, String)
    /// The folder has no `index.html`.
    case incomplete(URL)

    public var description: String {
        let fix = "install them with `sudo install -d /usr/local/share/facewatch && "
            + "sudo cp -r Sources/WebServer/Pages /usr/local/share/facewatch/` (README, \"Running as a service\")"
        switch self {
        case .notFound(let folders):
            return "the web pages are in none of \(folders.map(\.path).joined(separator: ", ")); \(fix)"
        case .unreadable(let folder, let reason):
            return "\(folder.path): cannot read the web pages (\(reason))"
        case .incomplete(let folder):
            return "\(folder.path): no index.html among the web pages; \(fix)"
        }
    }
}
