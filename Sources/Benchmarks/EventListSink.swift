import Events

/// Keeps the types of a replay's events, leaving out `nose` and `frame` lines and the
/// ends of smiles and open mouths.
final class EventListSink: EventSink {
    var events: [String] = []

    func write(_ event: Event) throws {
        switch event.payload {
        case .nose, .frame: return
        case .smile(_, let state, _), .mouthOpen(_, let state, _):
            if state == .start { events.append(event.type.rawValue) }
        default: events.append(event.type.rawValue)
        }
    }
}
