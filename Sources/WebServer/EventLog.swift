import Events
import Foundation
import NIOCore

/// The recent event stream for Server-Sent Events: every event gets the next id (1, 2, …) and
/// its JSON line (the same as standard output's); the last `capacity` are kept, within
/// `byteCapacity` bytes of JSON, so that a browser reconnecting with `Last-Event-ID` gets what it
/// missed. It is an `EventSink` of the pipeline.
///
/// The JSON is kept in one ring of bytes, the oldest events giving way to new ones, so writing
/// an event allocates nothing (readers get their bytes made when they read). `arrivals` wakes the
/// readers when events come; readers at the same place share one buffer of what is new.
///
/// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
public final class EventLog: EventSink, @unchecked Sendable {
    /// One event as sent: its id and its JSON (no newline).
    public struct Entry: Sendable, Equatable {
        public let id: Int
        public let json: String
    }

    /// Where a kept event's JSON lies in `bytes`; it may run on past the end to the start.
    private struct Record {
        var id: Int
        var start: Int
        var count: Int
    }

    public let capacity: Int
    /// Wakes the streams reading this log whenever an event is stored.
    public let arrivals = ChangeNotifier()
    /// Bytes of JSON kept at most. An event longer than this is given an id but not kept (none
    /// comes near the default, `capacity` KB: a `frame` event with four faces and their
    /// landmarks is about 10 KB).
    public let byteCapacity: Int
    private let filter: EventFilter
    private let encoder = EventEncoder()
    private let lock = NSLock()
    /// The ring of JSON bytes: the kept events lie one after another, the oldest first, ending
    /// at `end` (wrapping round).
    private var bytes: [UInt8]
    private var end = 0
    private var usedBytes = 0
    /// The kept events, oldest at `first`: a ring of `capacity` records.
    private var records: [Record]
    private var first = 0
    private var kept = 0
    private var lastID = 0
    /// The event being encoded (its storage reused).
    private var scratch: [UInt8] = []
    /// The last answer of `messages(after:)`, for the next reader at the same place.
    private var lastMessages: (after: Int, through: Int, buffer: ByteBuffer)?

    public init(capacity: Int = 2048, byteCapacity: Int? = nil, filter: EventFilter = .all) {
        precondition(capacity > 0)
        self.capacity = capacity
        self.byteCapacity = max(byteCapacity ?? capacity * 1024, 1)
        self.filter = filter
        bytes = [UInt8](repeating: 0, count: self.byteCapacity)
        records = [Record](repeating: Record(id: 0, start: 0, count: 0), count: capacity)
        scratch.reserveCapacity(4096)
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

    /// Gives the next id to the JSON `fill` writes into the (emptied) scratch buffer, and keeps
    /// it, making room by letting the oldest events go.
    @discardableResult
    private func store(_ fill: (inout [UInt8]) -> Void) -> Int {
        defer { arrivals.notify() }
        lock.lock()
        defer { lock.unlock() }
        lastID += 1
        scratch.removeAll(keepingCapacity: true)
        fill(&scratch)
        let count = scratch.count
        guard count <= byteCapacity else { return lastID }
        while kept > 0 && (kept == capacity || usedBytes + count > byteCapacity) {
            usedBytes -= records[first].count
            first = (first + 1) % capacity
            kept -= 1
        }
        let start = end, beforeEnd = min(count, byteCapacity - start)
        scratch.withUnsafeBufferPointer { source in
            bytes.withUnsafeMutableBufferPointer { ring in
                guard let from = source.baseAddress, let to = ring.baseAddress else { return }
                (to + start).update(from: from, count: beforeEnd)
                to.update(from: from + beforeEnd, count: count - beforeEnd)
            }
        }
        end = (start + count) % byteCapacity
        records[(first + kept) % capacity] = Record(id: lastID, start: start, count: count)
        kept += 1
        usedBytes += count
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
        var entries: [Entry] = []
        for k in firstKept(after: id)..<kept {
            let record = records[(first + k) % capacity]
            let (head, tail) = json(of: record)
            entries.append(Entry(id: record.id, json: String(decoding: Array(head) + tail, as: UTF8.self)))
        }
        return entries
    }

    /// The Server-Sent Events messages (`id: N`, `data: JSON`, a blank line) of the kept entries with an id above `id`, one
    /// after another in one buffer, and the id of the last; nil when there is none. Readers
    /// asking from the same id while no event came get the same buffer (ByteBuffer storage is
    /// shared, not copied, so a thousand clients cost one encoding).
    public func messages(after id: Int) -> (buffer: ByteBuffer, through: Int)? {
        lock.lock()
        defer { lock.unlock() }
        guard id < lastID else { return nil }
        if let last = lastMessages, last.after == id, last.through == lastID { return (last.buffer, last.through) }
        let from = firstKept(after: id)
        guard from < kept else { return nil }
        var buffer = ByteBufferAllocator().buffer(capacity: 0)
        var through = id
        for k in from..<kept {
            let record = records[(first + k) % capacity]
            buffer.writeString("id: \(record.id)\ndata: ")
            let (head, tail) = json(of: record)
            buffer.writeBytes(head)
            buffer.writeBytes(tail)
            buffer.writeString("\n\n")
            through = record.id
        }
        lastMessages = (id, through, buffer)
        return (buffer, through)
    }

    /// The position (0 = oldest) of the first kept record with an id above `id` (`kept` if none):
    /// ids grow along the ring, so a binary search.
    private func firstKept(after id: Int) -> Int {
        var low = 0, high = kept
        while low < high {
            let middle = (low + high) / 2
            if records[(first + middle) % capacity].id > id { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The JSON bytes of a kept record: up to the ring's end, then from its start (empty when it
    /// does not wrap round).
    private func json(of record: Record) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        let beforeEnd = min(record.count, byteCapacity - record.start)
        return (bytes[record.start..<(record.start + beforeEnd)], bytes[0..<(record.count - beforeEnd)])
    }

    /// Where a client starts: after its `Last-Event-ID` when it sends a valid one, else after the
    /// newest event (a new client sees events from now on).
    public func start(lastEventID: String?) -> Int {
        if let text = lastEventID?.trimmingCharacters(in: .whitespaces), let id = Int(text), id >= 0, id <= newestID {
            return id
        }
        return newestID
    }
}
