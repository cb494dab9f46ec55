import Foundation

/// Where `facewatch bench` finds the files it measures when none are given: the bundled
/// recordings and the repository's identity fixtures, looked for in the working directory, then
/// in every folder above the executable and its `share/facewatch` (an installed prefix, or the
/// repository a build lives in).
public struct BundledFiles: Sendable {
    /// The executable, its links resolved.
    public var executable: URL
    /// The folders looked in, in order.
    public var roots: [String]

    /// The roots of the running executable (`arguments[0]`, or `/proc/self/exe` when it has no
    /// folder) and the working directory.
    public init(arguments: [String] = CommandLine.arguments, workingDirectory: String = FileManager.default.currentDirectoryPath) {
        let first = arguments.first ?? ""
        let executable = URL(fileURLWithPath: first.contains("/") ? first : "/proc/self/exe").resolvingSymlinksInPath()
        self.init(executable: executable, workingDirectory: workingDirectory)
    }

    /// The roots of `executable` and `workingDirectory`.
    public init(executable: URL, workingDirectory: String) {
        self.executable = executable
        var roots = [workingDirectory]
        var folder = executable.deletingLastPathComponent()
        while folder.path != "/" {
            roots.append(folder.path)
            roots.append(folder.appendingPathComponent("share/facewatch").path)
            folder = folder.deletingLastPathComponent()
        }
        self.roots = roots
    }

    /// The bundled recordings the pipeline and the varied-frame fit are measured on
    /// (`Recordings/blinks-slow-move`, then `Recordings/hopper-blinks` for a second face), from
    /// the first root that has both.
    public func recordings() throws -> [String] {
        let names = ["blinks-slow-move", "hopper-blinks"]
        for root in roots {
            let paths = names.map { "\(root)/Recordings/\($0)" }
            if paths.allSatisfy({ FileManager.default.fileExists(atPath: "\($0)/recording.json") }) { return paths }
        }
        throw BenchmarkError("no recording given and no bundled Recordings/ found next to \(executable.path) or in the working directory: run `facewatch bench RECORDING`")
    }

    /// The bundled 1280×720 recording, when it is there.
    public func largeRecording() -> String? {
        roots.map { "\($0)/Recordings/hd/pexels-langer-720p" }
            .first { FileManager.default.fileExists(atPath: "\($0)/recording.json") }
    }

    /// The repository's `Tests/Fixtures/identity/` folder (with a trailing slash), when it is there.
    public func identityFixtures() -> String? {
        roots.map { "\($0)/Tests/Fixtures/identity/" }
            .first { FileManager.default.fileExists(atPath: $0 + "descriptors.json") }
    }
}
