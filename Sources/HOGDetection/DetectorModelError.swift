/// A face detector model that could not be loaded. The description is one line naming the path,
/// what is wrong, and how to get the standard model.
public struct DetectorModelError: Error, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Equatable, Sendable {
        /// No file at the path (or it cannot be opened).
        case missing(String)
        /// The file is not a dlib `object_detector<scan_fhog_pyramid<pyramid_down<6>>>`, or is
        /// inconsistent inside.
        case malformed(String)
        /// The file ends before the model does.
        case truncated(atByte: Int)
    }

    public let path: String
    public let reason: Reason

    public init(path: String, reason: Reason) {
        self.path = path
        self.reason = reason
    }

    public var description: String {
        let what: String
        switch reason {
        case .missing(let detail): what = "cannot read the face detector model (\(detail))"
        case .malformed(let detail): what = "not a dlib HOG face detector model: \(detail)"
        case .truncated(let offset): what = "face detector model is truncated (ends at byte \(offset))"
        }
        return "\(path): \(what); reinstall it with Scripts/setup-debian (it installs Models/dlib_frontal_face_detector.dat)"
    }
}
