/// Replays a recording's frames in order, as a `FrameSource`, optionally several times over:
/// each repetition continues the frame numbers and the clock (one frame interval after the
/// previous pass's last frame), so a loop looks like one long stream.
public struct RecordingSource: FrameSource {
    public let recording: Recording
    public let loops: Int
    private var next = 0
    private var pass = 0

    public init(recording: Recording, loops: Int = 1) {
        self.recording = recording
        self.loops = max(1, loops)
    }

    public mutating func nextFrame() throws -> Frame? {
        if next == recording.frames.count {
            pass += 1
            next = 0
        }
        guard pass < loops, next < recording.frames.count else { return nil }
        let number = next
        next += 1
        let entry = recording.frames[number]
        let period = recording.duration + 1 / recording.info.fps
        let index = entry.index + pass * recording.frames.count, t = entry.t + Double(pass) * period
        do {
            return Frame(index: index, t: t, payload: .jpeg(try recording.jpeg(number)))
        } catch let error as FrameError {
            throw FrameError(index: index, t: t, problem: error.problem)
        }
    }
}
