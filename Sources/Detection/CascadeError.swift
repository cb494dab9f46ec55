/// Why a cascade file could not be loaded.
///
/// Every message names the file and what is wrong with it, and says where the stock cascades
/// come from, so a user who sees it on the terminal knows what to do next.
public struct CascadeError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file that failed to load.
    public let path: String
    /// What is wrong with it, without the path.
    public let reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        "cannot load OpenCV cascade \(path): \(reason). The stock cascades come with Debian's "
            + "opencv-data package (apt-get install opencv-data) under /usr/share/opencv4/."
    }
}
