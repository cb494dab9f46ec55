import ArgumentParser
import Config
import Events
import Pipeline

/// The event-output flags of `replay` and `run`, applied over the config's `output` section.
struct OutputFlags: ParsableArguments {
    @Flag(help: "Also write a `frame` line per processed frame (EAR, MAR, smile, nose, pose per face).")
    var frames = false

    @Flag(help: "Include the 68 landmarks in `frame` lines (implies --frames).")
    var landmarks = false

    @Flag(name: .customLong("no-nose"), help: "Leave out the per-frame `nose` lines.")
    var noNose = false

    @Option(help: "Only these event types, comma-separated (e.g. blink,smile), or all. Default: the config's output.events.")
    var events: String?

    func apply(to configuration: Configuration) -> Configuration {
        var configuration = configuration
        let current = configuration.output
        configuration.output = OutputOptions(nose: current.nose && !noNose, frames: current.frames || frames,
                                             landmarks: current.landmarks || landmarks)
        if let events { configuration.events = events }
        return configuration
    }

    func filter(_ configuration: Configuration) throws -> EventFilter {
        do {
            return try EventFilter(parsing: configuration.events)
        } catch {
            throw ValidationError("\(error)")
        }
    }
}
