import FaceCore

/// Whether a lasting state (smile, open mouth, closed eyes) starts or ends.
public enum EventState: String, Sendable, Equatable {
    case start
    case end
}

/// Why a track ended (`face_lost`). Only `end` is written (`"reason":"end"`); a `face_lost`
/// without `reason` means the face was no longer found.
public enum LostReason: String, Sendable, Equatable {
    case lost
    case end
}

/// One of the person's own eyes (`left` is iBUG 42–47, on the image's right in a non-mirrored camera).
public enum EyeSide: String, Sendable, Equatable {
    case left
    case right
}

/// What an event says, one case per `EventType`. Times (`start`) are stream seconds, durations
/// are seconds (written as `duration_ms`), `face` is the track id.
public enum EventPayload: Sendable, Equatable {
    /// A face is first tracked; `box` in pixels.
    case faceFound(face: Int, box: FaceBox)
    /// A tracked face is gone: it left the view (`reason` `.lost`), or the stream ended while it
    /// was tracked (`.end`: a replay's last frame, a camera closed on shutdown).
    case faceLost(face: Int, reason: LostReason = .lost)
    /// Both eyes closed at `start` and were open again `duration` seconds later.
    case blink(face: Int, start: Double, duration: Double)
    /// One eye closed at `start` and opened `duration` seconds later, the other stayed open.
    case wink(face: Int, eye: EyeSide, start: Double, duration: Double)
    /// Both eyes stayed closed longer than a blink: `.start` when that became clear (with the
    /// duration so far), `.end` with the whole duration.
    case eyesClosed(face: Int, state: EventState, start: Double, duration: Double)
    /// A smile starts or ends; `score` is the smile score of that frame.
    case smile(face: Int, state: EventState, score: Double)
    /// The mouth opens or closes; `mar` is the mouth aspect ratio of that frame.
    case mouthOpen(face: Int, state: EventState, mar: Double)
    /// The nose tip, normalised to 0...1 of the frame width and height.
    case nose(face: Int, x: Double, y: Double)
    /// Every face of a processed frame.
    case frame(faces: [FrameFace])
    /// Periodic throughput and latency figures.
    case stats(Stats)
    /// Something went wrong that the daemon survived; `code` is a short stable identifier
    /// (snake_case, e.g. `"jpeg_decode"`), `message` is for people.
    case error(message: String, code: String)

    /// The event type this payload is written as.
    public var type: EventType {
        switch self {
        case .faceFound: return .faceFound
        case .faceLost: return .faceLost
        case .blink: return .blink
        case .wink: return .wink
        case .eyesClosed: return .eyesClosed
        case .smile: return .smile
        case .mouthOpen: return .mouthOpen
        case .nose: return .nose
        case .frame: return .frame
        case .stats: return .stats
        case .error: return .error
        }
    }
}
