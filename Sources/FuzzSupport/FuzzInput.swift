import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer's entry point for programs that have their own `main` (SwiftPM gives every
/// executable one): it parses libFuzzer's options and runs the target.
@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(_ argc: UnsafeMutablePointer<CInt>,
                             _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                             _ target: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> CInt

/// What every fuzz target shares: the bytes libFuzzer hands it, and its `main`: libFuzzer when
/// built with `-sanitize=fuzzer -DFUZZING`, otherwise a runner that replays saved inputs
/// (`swift build`; then `.build/debug/FuzzJPEG Tests/Fuzz/corpus/jpeg` runs the corpus once,
/// e.g. to check a crash input after a fix).
public enum FuzzInput {
    /// Runs `target` under libFuzzer (fuzzing builds) or on the files named on the command line.
    public static func main(target: @convention(c) (UnsafeRawPointer?, Int) -> CInt) -> Never {
        #if FUZZING
        var argc = CommandLine.argc
        var argv = Optional(CommandLine.unsafeArgv)
        exit(runFuzzerDriver(&argc, &argv, target))
        #else
        replay(target: target)
        exit(0)
        #endif
    }

    /// The input as `Data` (a copy: the fuzzer's buffer is only valid during the call).
    public static func data(_ start: UnsafeRawPointer?, _ count: Int) -> Data {
        guard let start, count > 0 else { return Data() }
        return Data(bytes: start, count: count)
    }

    /// Runs a target (its `LLVMFuzzerTestOneInput`) on every file named on the command line
    /// (folders: every file inside).
    public static func replay(_ arguments: [String] = Array(CommandLine.arguments.dropFirst()),
                              target: @convention(c) (UnsafeRawPointer?, Int) -> CInt) {
        var files: [String] = []
        for path in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
                files += names.sorted().map { "\(path)/\($0)" }
            } else {
                files.append(path)
            }
        }
        for file in files {
            guard let data = FileManager.default.contents(atPath: file) else { continue }
            _ = data.withUnsafeBytes { target($0.baseAddress, $0.count) }
        }
        print("\(files.count) inputs replayed")
    }
}
