/// Which event types are written (the CLI's `--events blink,smile`).
public struct EventFilter: Sendable, Equatable {
    /// The accepted types; nil accepts every type.
    public let types: Set<EventType>?

    public init(types: Set<EventType>?) {
        self.types = types
    }

    /// Accepts everything.
    public static let all = EventFilter(types: nil)

    /// Parses a comma-separated list of type names, e.g. `"blink,smile"` (spaces around names are
    /// ignored; `"all"` accepts every type).
    /// - Throws: `EventsError.unknownEventType` naming the bad entry and the valid names,
    ///   `EventsError.noEventTypes` for an empty list.
    public init(parsing list: String) throws {
        // An empty list would silently write nothing: name the types, or `all`.
        guard list.contains(where: { $0 != " " && $0 != "," }) else { throw EventsError.noEventTypes }
        var set = Set<EventType>()
        for part in list.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: " ")
            if name == "all" {
                self = .all
                return
            }
            guard let type = EventType(rawValue: name) else { throw EventsError.unknownEventType(name) }
            set.insert(type)
        }
        types = set
    }

    /// This filter without `type`.
    public func excluding(_ type: EventType) -> EventFilter {
        EventFilter(types: (types ?? Set(EventType.allCases)).subtracting([type]))
    }

    public func accepts(_ type: EventType) -> Bool {
        types?.contains(type) ?? true
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
