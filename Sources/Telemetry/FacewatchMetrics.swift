import Events
import FaceCore
import Prometheus

/// The Prometheus metrics of one Facewatch process (one camera): frames captured, decoded and
/// dropped by reason, processing time and capture-to-event latency, faces tracked, events by
/// type, checks by verdict and camera reconnects. It observes the live pipeline
/// (`PipelineObserver`) and the event stream (`EventSink`); `exposition()` is the text
/// `GET /metrics` serves.
public final class FacewatchMetrics: PipelineObserver, EventSink, Sendable {
    /// Where the metrics live; `exposition()` renders it.
    public let registry: PrometheusCollectorRegistry
    private let captured: Counter
    private let decoded: Counter
    private let dropped: [FrameDropReason: Counter]
    private let processing: ValueHistogram
    private let latency: ValueHistogram
    private let faces: Gauge
    private let reconnects: Counter
    private let events: [EventType: Counter]
    private let checks: [Bool: Counter]

    /// Histogram buckets, in seconds: 1 ms to 1 s.
    public static let buckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1]

    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        captured = registry.makeCounter(descriptor: Self.name("frames_captured_total", "Frames that arrived from the camera or recording."))
        decoded = registry.makeCounter(descriptor: Self.name("frames_decoded_total", "Frames decoded and run through detection and landmarks."))
        var dropped: [FrameDropReason: Counter] = [:]
        for reason in FrameDropReason.allCases {
            dropped[reason] = registry.makeCounter(descriptor: Self.name("frames_dropped_total", "Frames that never reached the landmark model, by reason."), labels: [("reason", reason.rawValue)])
        }
        self.dropped = dropped
        processing = registry.makeValueHistogram(descriptor: Self.name("processing_seconds", "Time to decode and process one frame."), buckets: Self.buckets)
        latency = registry.makeValueHistogram(descriptor: Self.name("capture_to_event_seconds", "Time from a frame's arrival to its events being ready."), buckets: Self.buckets)
        faces = registry.makeGauge(descriptor: Self.name("faces_tracked", "Faces tracked in the last processed frame."))
        reconnects = registry.makeCounter(descriptor: Self.name("camera_reconnects_total", "Times the camera came back after a disconnection."))
        var events: [EventType: Counter] = [:]
        for type in EventType.allCases {
            events[type] = registry.makeCounter(descriptor: Self.name("events_total", "Events produced, by type (before output filtering)."), labels: [("type", type.rawValue)])
        }
        self.events = events
        checks = [true: registry.makeCounter(descriptor: Self.name("checks_total", "Liveness checks finished, by verdict."), labels: [("verdict", "pass")]),
                  false: registry.makeCounter(descriptor: Self.name("checks_total", "Liveness checks finished, by verdict."), labels: [("verdict", "fail")])]
    }

    /// `facewatch_NAME` with its help text.
    private static func name(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "facewatch", metricName: name, unitName: "", helpText: help)
    }

    public func frameCaptured() {
        captured.increment()
    }

    public func framesDropped(_ count: Int, reason: FrameDropReason) {
        dropped[reason]?.increment(by: Int64(count))
    }

    public func frameProcessed(seconds: Double, latency: Double, faces: Int) {
        decoded.increment()
        processing.record(seconds)
        self.latency.record(latency)
        self.faces.set(to: Double(faces))
    }

    /// Counts an event by type (and a camera that came back as a reconnect).
    public func write(_ event: Event) throws {
        events[event.type]?.increment()
        if case .error(_, "camera_reconnected") = event.payload { reconnects.increment() }
    }

    /// Counts a liveness check's verdict (`pass` or `fail`).
    public func checkConcluded(passed: Bool) {
        checks[passed]?.increment()
    }

    /// The metrics in Prometheus' text exposition format.
    public func exposition() -> String {
        registry.emitToString()
    }
}
