import ArgumentParser

@main
struct Facewatch: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "facewatch")
}
