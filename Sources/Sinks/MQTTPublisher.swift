import CMosquitto
import Events
import Foundation

/// Publishes every event to an MQTT broker (libmosquitto through `CMosquitto`): each event's JSON
/// (the same as standard output's, without the newline) is one message on the destination's
/// topic, with the chosen QoS and retain flag. Publishing never blocks the pipeline: events go
/// into an `OutboundQueue` that a thread of the publisher's own hands to the client while it is
/// connected. While the broker is away the client reconnects with backoff and events wait, up to
/// the queue's bound; past it they are dropped and counted (`lost`, reported as `mqtt_lost` in
/// `stats`). With QoS 1 or 2 nothing below the bound is lost across a broker restart.
///
/// `@unchecked Sendable`: every stored `var` but `worker` (set in `init`) is read and written only
/// with `condition` locked;
/// the client handle is libmosquitto's, whose calls the `CMosquitto` shim makes thread-safe.
public final class MQTTPublisher: EventSink, @unchecked Sendable {
    /// The client could not be created.
    public struct StartError: Error, CustomStringConvertible {
        public let description: String
    }

    public let destination: MQTTDestination
    public let qos: Int
    public let retain: Bool
    private let filter: EventFilter
    private let encoder = EventEncoder()
    private let client: OpaquePointer
    private let condition = NSCondition()
    private var queue: OutboundQueue<[UInt8]>
    private var acknowledged: Int64 = 0
    private var stopping = false
    /// Set once in `init`, before any other thread can see the publisher.
    private var worker: Thread?
    private var buffer: [UInt8] = []

    public init(destination: MQTTDestination, qos: Int = 1, retain: Bool = false, queueLimit: Int = 1000,
                reconnectMax: Double = 30, clientID: String? = nil, filter: EventFilter = .all) throws {
        precondition((0...2).contains(qos))
        self.destination = destination
        self.qos = qos
        self.retain = retain
        self.filter = filter
        queue = OutboundQueue(limit: queueLimit)
        let id = clientID ?? "facewatch-\(ProcessInfo.processInfo.hostName)-\(getpid())"
        var started: OpaquePointer?
        let rc = fw_mqtt_start(id, destination.host, Int32(destination.port), 30, Int32(reconnectMax.rounded(.up)), &started)
        guard rc == 0, let started else {
            throw StartError(description: "--mqtt \(destination.host):\(destination.port): \(String(cString: fw_mqtt_error(rc)))")
        }
        client = started
        let thread = Thread { [unowned self] in self.handOver() }
        thread.name = "facewatch.mqtt"
        worker = thread
        thread.start()
    }

    public func write(_ event: Event) throws {
        guard filter.accepts(event.type) else { return }
        condition.lock()
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(event, into: &buffer)
        buffer.removeLast()  // the newline
        queue.offer(buffer)
        condition.signal()
        condition.unlock()
    }

    /// Events dropped because the queue was full while the broker was away.
    public var lost: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.lost
    }

    /// Events queued or not yet acknowledged by the broker.
    public var pending: Int {
        condition.lock()
        defer { condition.unlock() }
        return queue.queued + queue.inFlight
    }

    /// Whether the client is connected to the broker now.
    public var isConnected: Bool { status().connected }

    /// Waits up to `timeout` seconds for the broker to acknowledge what is pending, then
    /// disconnects. Returns the number of events still unacknowledged (0: all delivered).
    @discardableResult
    public func close(timeout: Double = 5) -> Int {
        let deadline = Date().addingTimeInterval(timeout)
        while pending > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let left = pending
        condition.lock()
        stopping = true
        condition.signal()
        condition.unlock()
        while worker?.isFinished == false { Thread.sleep(forTimeInterval: 0.005) }
        fw_mqtt_stop(client)
        return left
    }

    private func status() -> (connected: Bool, acknowledged: Int64) {
        var connected: Int32 = 0
        var acked: Int64 = 0, connections: Int64 = 0
        fw_mqtt_status(client, &connected, &acked, &connections)
        return (connected != 0, acked)
    }

    /// The worker: hands queued messages to the client while it is connected, and counts the
    /// broker's acknowledgements.
    private func handOver() {
        condition.lock()
        defer { condition.unlock() }
        while !stopping {
            let (connected, acked) = status()
            queue.acknowledged(Int(acked - acknowledged))
            acknowledged = acked
            guard connected, let message = queue.take() else {
                _ = condition.wait(until: Date().addingTimeInterval(0.01))
                continue
            }
            var mid: Int32 = 0
            let rc = message.withUnsafeBytes { raw in
                fw_mqtt_publish(client, destination.topic, raw.baseAddress, raw.count, Int32(qos), retain ? 1 : 0, &mid)
            }
            if rc != 0 {
                queue.putBack(message)
                _ = condition.wait(until: Date().addingTimeInterval(0.05))
            }
        }
    }
}
