/// Why the face descriptor model could not be used, or a face could not be described.
public enum FaceDescriptorError: Error, Equatable, CustomStringConvertible {
    /// No model file at any of the places looked in.
    case modelMissing(searched: [String])
    /// The file exists but cannot be read.
    case unreadable(path: String, reason: String)
    /// The file is not dlib's face recognition ResNet, or is damaged.
    case malformed(path: String, reason: String)
    /// The landmarks given are not dlib's 68-point layout, or place the face outside the image.
    case badShape(String)
    /// OpenBLAS, which runs the network's matrix products, cannot be loaded.
    case blasMissing(reason: String)

    public var description: String {
        switch self {
        case .modelMissing(let searched):
            return "face descriptor model \(DescriptorModelLocator.fileName) not found (looked in \(searched.joined(separator: ", "))); install it with Scripts/setup-models (the Debian package: sudo facewatch-setup-models)"
        case .unreadable(let path, let reason):
            return "cannot read face descriptor model \(path): \(reason); reinstall it with Scripts/setup-models (the Debian package: sudo facewatch-setup-models)"
        case .malformed(let path, let reason):
            return "face descriptor model \(path) is damaged or not dlib's face recognition ResNet (\(reason)); reinstall it with Scripts/setup-models (the Debian package: sudo facewatch-setup-models)"
        case .badShape(let reason):
            return "cannot describe the face: \(reason)"
        case .blasMissing(let reason):
            return "the face descriptor network needs OpenBLAS, which cannot be loaded (\(reason)); install it with: apt-get install libopenblas0"
        }
    }
}
