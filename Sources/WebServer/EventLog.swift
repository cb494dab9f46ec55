import Events
import Foundation

/// The recent event stream for Server-Sent Events: every event gets the next id (1, 2, …) and
/// its JSON line (the same as standard output's); the last `capacity` are kept so that a browser
/// reconnecting with `Last-Event-ID` gets what it missed. It is an `EventSink` of the pipeline.
public final class EventLog: EventSink, @unchecked Sendable {
    /// One event as sent: its id and its JSON (no newline).
    public struct Entry: Sendable, Equatable {
        public let id: Int
        public let json: String
    }

    public let capacity: Int
    private let filter: EventFilter
    private let encoder = EventEncoder()
    private let lock = NSLock()
    private var entries: [Entry] = []
    private var head = 0
    private var lastID = 0

    public init(capacity: Int = 2048, filter: EventFilter = .all) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.filter = filter
        entries.reserveCapacity(capacity)
    }

    public func write(_ event: Event) throws {
        guard filter.accepts(event.type) else { return }
        var json = encoder.line(event)
        json.removeLast()  // the newline
        append(json)
    }

    /// Adds one JSON text and returns its id.
    @discardableResult
    public func append(_ json: String) -> Int {
        lock.lock()
        defer { lock.unlock() }
        lastID += 1
        let entry = Entry(id: lastID, json: json)
        if entries.count < capacity {
            entries.append(entry)
        } else {
            entries[head] = entry
            head = (head + 1) % capacity
        }
        return lastID
    }

    /// The newest id given so far (0: none).
    public var newestID: Int {
        lock.lock()
        defer { lock.unlock() }
        return lastID
    }

    /// The kept entries with an id above `id`, oldest first. An id from before a restart (above
    /// the newest) gives nothing: the client continues with what comes next.
    public func entries(after id: Int) -> [Entry] {
        lock.lock()
        defer { lock.unlock() }
        guard id < lastID else { return [] }
        let ordered = entries[head...] + entries[..<head]
        return ordered.filter { $0.id > id }
    }

    /// Where a client starts: after its `Last-Event-ID` when it sends a valid one, else after the
    /// newest event (a new client sees events from now on).
    public func start(lastEventID: String?) -> Int {
        if let text = lastEventID?.trimmingCharacters(in: .whitespaces), let id = Int(text), id >= 0, id <= newestID {
            return id
        }
        return newestID
    }

    /// One Server-Sent Events message: `id: N`, then `data: JSON`, then a blank line.
    public static func frame(_ entry: Entry) -> String {
        "id: \(entry.id)\ndata: \(entry.json)\n\n"
    }
}
