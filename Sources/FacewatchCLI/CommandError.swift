/// A failure a command reports as one line on standard error (exit status 1), without usage text.
struct CommandError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
