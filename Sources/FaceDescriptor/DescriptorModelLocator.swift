import Foundation

/// Where `dlib_face_recognition_resnet_model_v1.dat` is looked for: only `$FACEWATCH_MODELS` when
/// it is set, otherwise the user's data folder, then `/usr/local/share/facewatch/models` (the
/// folders `Scripts/setup-models` installs into), then `/var/lib/facewatch/models` (where the
/// Debian package's `facewatch-setup-models` installs it). Nothing is downloaded at run time.
public struct DescriptorModelLocator: Sendable {
    public static let fileName = "dlib_face_recognition_resnet_model_v1.dat"

    public let directories: [String]

    public init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        var dirs: [String] = []
        if let explicit = environment["FACEWATCH_MODELS"], !explicit.isEmpty {
            directories = [explicit]
            return
        }
        if let data = environment["XDG_DATA_HOME"], !data.isEmpty {
            dirs.append(data + "/facewatch/models")
        } else if let home = environment["HOME"], !home.isEmpty {
            dirs.append(home + "/.local/share/facewatch/models")
        }
        dirs.append("/usr/local/share/facewatch/models")
        dirs.append("/var/lib/facewatch/models")
        directories = dirs
    }

    /// The first installed model file, or `modelMissing` naming every place looked in.
    public func locate() throws -> String {
        let candidates = directories.map { $0 + "/" + Self.fileName }
        for path in candidates where FileManager.default.fileExists(atPath: path) { return path }
        throw FaceDescriptorError.modelMissing(searched: directories)
    }
}
