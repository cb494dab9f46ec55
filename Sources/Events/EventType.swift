/// The `type` of an event line (shared/spec/events.md), plus `wink` and `eyes_closed`, which this
/// build adds.
public enum EventType: String, CaseIterable, Sendable, Hashable {
    case faceFound = "face_found"
    case faceLost = "face_lost"
    case blink
    case wink
    case eyesClosed = "eyes_closed"
    case smile
    case mouthOpen = "mouth_open"
    case nose
    case frame
    case stats
    case error
}
