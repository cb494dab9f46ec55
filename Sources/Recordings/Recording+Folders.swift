import Foundation

extension Recording {
    /// The recording folders `path` stands for: itself when it holds a `recording.json`, or else
    /// the folders in it that do, sorted (`facewatch check-eval`'s arguments).
    /// - Throws: `RecordingError` when `path` is not a folder, or holds no recording here or one
    ///   folder down.
    public static func folders(in path: String) throws -> [String] {
        let url = URL(fileURLWithPath: path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw RecordingError(path: path, problem: "not a folder")
        }
        if FileManager.default.fileExists(atPath: url.appendingPathComponent("recording.json").path) { return [path] }
        let children = (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
        let inside = children.filter {
            FileManager.default.fileExists(atPath: url.appendingPathComponent($0).appendingPathComponent("recording.json").path)
        }
        guard !inside.isEmpty else {
            throw RecordingError(path: path, problem: "no recording in it (no recording.json here or one folder down)")
        }
        return inside.map { url.appendingPathComponent($0).path }
    }
}
