import Events
import Pipeline

/// One processed frame as `Facewatch.frames(replaying:)` delivers it: what the pipeline made of
/// it (tracked faces with their 68 landmarks, EAR, MAR, smile score, head pose) and the events
/// it gave.
public struct FrameUpdate: Sendable {
    public var result: FrameResult
    public var events: [Event]

    public init(result: FrameResult, events: [Event]) {
        self.result = result
        self.events = events
    }
}
