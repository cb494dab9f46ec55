import Config
import Events
import Recordings

extension Replay {
    /// Replays a recording folder (every frame) with `configuration` and returns its event
    /// lines, each ending in a line break, as `facewatch replay` writes them (`facewatch plot
    /// --replay`).
    public static func lines(of recording: String, configuration: Configuration) throws -> [String] {
        let opened = try Recording(directory: recording)
        let processor = try FrameProcessor(configuration: configuration)
        let sink = LineCollector()
        var source = RecordingSource(recording: opened)
        _ = try run(&source, processor: processor, problems: opened.problems, sink: sink)
        return sink.lines
    }
}

/// Keeps encoded event lines.
private final class LineCollector: EventSink {
    private let encoder = EventEncoder()
    var lines: [String] = []

    func write(_ event: Event) throws {
        lines.append(encoder.line(event))
    }
}
