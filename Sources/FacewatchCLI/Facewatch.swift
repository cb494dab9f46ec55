import ArgumentParser
import Foundation

/// The `facewatch` command: a webcam liveness and expression daemon and its tools.
@main
struct Facewatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "facewatch",
        abstract: "Real-time webcam liveness and expression events (blink, smile, mouth, nose) as JSON lines.",
        version: facewatchVersion,
        subcommands: [RunCommand.self, ServeCommand.self, PointerCommand.self, ReplayCommand.self, CheckCommand.self, CheckEvalCommand.self, RecordCommand.self, DevicesCommand.self, EvalCommand.self,
                      PlotCommand.self, LandmarksCommand.self, DetectCommand.self, BenchCommand.self, LoopbackCommand.self,
                      EnrollCommand.self, VerifyCommand.self, IdentitiesCommand.self]
    )

    static func main() {
        // A reader closing the pipe must end the program through an error we handle, not a signal.
        signal(SIGPIPE, SIG_IGN)
        // Past a file size limit (RLIMIT_FSIZE) a write must fail like a full disk, not kill us.
        signal(SIGXFSZ, SIG_IGN)
        // Logs go to standard error; bootstrap before anything can log (stdout carries events).
        _ = Log.shared
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch {
            exit(withError: error)
        }
    }
}
