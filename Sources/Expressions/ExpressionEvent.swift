/// Which of the person's eyes (their own left/right, as in `FaceMeasures.earLeft`).
public enum Eye: String, Sendable, Equatable {
    case left
    case right
}

/// Whether a lasting expression begins or ends.
public enum Transition: String, Sendable, Equatable {
    case start
    case end
}

/// What the state machines report. The time of an event is the `t` of the frame that was being
/// processed when it was emitted; `start` values are stream times in seconds, durations are seconds.
public enum ExpressionEvent: Sendable, Equatable {
    /// Both eyes closed (at `start`) and opened again `duration` seconds later.
    case blink(start: Double, duration: Double)
    /// One eye closed (at `start`) and opened again while the other stayed clearly open.
    case wink(eye: Eye, start: Double, duration: Double)
    /// Both eyes stayed closed longer than a blink: `.start` when the closure passes the longest
    /// blink, `.end` (with the whole duration) when they open again or tracking is suspended.
    case eyesClosed(Transition, start: Double, duration: Double)
    /// A smile began or ended; `score` is the smile score of that frame.
    case smile(Transition, score: Double)
    /// The mouth opened or closed; `mar` is the mouth aspect ratio of that frame.
    case mouthOpen(Transition, mar: Double)
}
