/// Replays a recording's frames in order, as a `FrameSource`.
public struct RecordingSource: FrameSource {
    public let recording: Recording
    private var next = 0

    public init(recording: Recording) {
        self.recording = recording
    }

    public mutating func nextFrame() throws -> Frame? {
        guard next < recording.frames.count else { return nil }
        let number = next
        next += 1
        let entry = recording.frames[number]
        return Frame(index: entry.index, t: entry.t, payload: .jpeg(try recording.jpeg(number)))
    }
}
