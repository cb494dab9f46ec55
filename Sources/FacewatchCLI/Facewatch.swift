import ArgumentParser

/// The `facewatch` command: a webcam liveness and expression daemon and its tools.
@main
struct Facewatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "facewatch",
        abstract: "Real-time webcam liveness and expression events (blink, smile, mouth, nose) as JSON lines.",
        subcommands: [LandmarksCommand.self, DetectCommand.self, BenchCommand.self]
    )
}
