import Events
import Foundation

/// The recent event stream for Server-Sent Events: every event gets the next id (1, 2, …) and
/// its JSON line (the same as standard output's); the last `capacity` are kept so that a browser
/// reconnecting with `Last-Event-ID` gets what it missed. It is an `EventSink` of the pipeline.
///
/// Each kept event is encoded straight into a slot of a ring whose byte buffers are reused, so
/// writing an event allocates nothing once the ring has gone round (readers get their strings
/// made when they read).
public final class EventLog: EventSink, @unchecked Sendable {
    /// One event as sent: its id and its JSON (no newline).
    public struct Entry: Sendable, Equatable {
        public let id: Int
        public let json: String
    }

    /// A kept event: its id and its JSON's UTF-8 bytes (no newline).
    private struct Slot {
        var id: Int
        var json: [UInt8]
    }

    public let capacity: Int
    private let filter: EventFilter
    private let encoder = EventEncoder()
    private let lock = NSLock()
    /// The ring: `slots[..<kept]` hold events, the oldest at `head` once all are in use.
    private var slots: [Slot]
    private var kept = 0
    private var head = 0
    private var lastID = 0
    /// Bytes each slot has room for from the start (a `nose` line is about 80, a `blink` 110).
    private static let slotBytes = 256

    public init(capacity: Int = 2048, filter: EventFilter = .all) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.filter = filter
        slots = (0..<capacity).map { _ in
            var json: [UInt8] = []
            json.reserveCapacity(Self.slotBytes)
            return Slot(id: 0, json: json)
        }
    }

    public func write(_ event: Event) throws {
        guard filter.accepts(event.type) else { return }
        store { json in
            encoder.encode(event, into: &json)
            json.removeLast()  // the newline
        }
    }

    /// Adds one JSON text and returns its id.
    @discardableResult
    public func append(_ json: String) -> Int {
        store { $0.append(contentsOf: json.utf8) }
    }

    /// Gives the next id to the JSON `fill` writes into the next slot's (emptied) buffer.
    @discardableResult
    private func store(_ fill: (inout [UInt8]) -> Void) -> Int {
        lock.lock()
        defer { lock.unlock() }
        lastID += 1
        let slot = kept < capacity ? kept : head
        slots[slot].id = lastID
        slots[slot].json.removeAll(keepingCapacity: true)
        fill(&slots[slot].json)
        if kept < capacity {
            kept += 1
        } else {
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
        let ordered = kept < capacity ? Array(slots[..<kept]) : Array(slots[head...] + slots[..<head])
        return ordered.filter { $0.id > id }.map { Entry(id: $0.id, json: String(decoding: $0.json, as: UTF8.self)) }
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
