/// Face cascades as Debian's opencv-data package installs them.
public enum SystemCascade: String, CaseIterable, Sendable {
    /// `haarcascade_frontalface_default.xml`: 24×24 window, 25 stages of stumps (OpenCV's default).
    case haarFrontalFaceDefault = "haarcascades/haarcascade_frontalface_default.xml"
    /// `haarcascade_frontalface_alt2.xml`: 20×20 window, 20 stages of two-node trees.
    case haarFrontalFaceAlt2 = "haarcascades/haarcascade_frontalface_alt2.xml"
    /// `haarcascade_frontalface_alt.xml`: 20×20 window, 22 stages of stumps.
    case haarFrontalFaceAlt = "haarcascades/haarcascade_frontalface_alt.xml"
    /// `lbpcascade_frontalface_improved.xml`: 45×45 window, 19 stages of LBP stumps.
    case lbpFrontalFaceImproved = "lbpcascades/lbpcascade_frontalface_improved.xml"
    /// `lbpcascade_frontalface.xml`: 24×24 window, 20 stages of LBP stumps.
    case lbpFrontalFace = "lbpcascades/lbpcascade_frontalface.xml"

    /// Where opencv-data puts the cascades.
    public static let directory = "/usr/share/opencv4"

    /// Full path of the installed file.
    public var path: String { "\(Self.directory)/\(rawValue)" }

    /// Loads the installed file.
    /// - Throws: ``CascadeError`` when it is missing or unreadable.
    public func load() throws -> CascadeClassifier {
        try CascadeClassifier(contentsOf: path)
    }
}
