import Config
import Events
import Foundation
import Logging
import Pipeline
import Recordings
import Sinks
import Telemetry
import WebServer

/// The sinks and observers a daemon run writes to besides standard output, built from the
/// configuration: the Unix socket, the web server (with its metrics) and the MQTT publisher.
public final class Integrations {
    public let socket: SocketEventServer?
    public let web: WebSession?
    public let metrics: FacewatchMetrics?
    public let mqtt: MQTTPublisher?
    let logger: Logger
    private var finished = false

    /// The web page shows EAR and MAR, which `frame` events carry: with a web server the processor
    /// makes them even when standard output (and the socket, MQTT) leaves them out. Returns the
    /// configuration to process with and the filter for the other sinks.
    public static func processing(_ configuration: Configuration, httpBind: String?, filter: EventFilter) -> (Configuration, EventFilter) {
        guard httpBind != nil, !configuration.output.frames else { return (configuration, filter) }
        var processing = configuration
        processing.output = OutputOptions(nose: configuration.output.nose, frames: true, landmarks: false)
        return (processing, filter.excluding(.frame))
    }

    /// `pageFilter`: the events the web page gets (the user's filter); `filter`: the others'.
    /// `socket`: a socket server already listening, or nil. The web server and the shutdown log to `logger`.
    public init(configuration: Configuration, httpBind: String?, pageFilter: EventFilter, filter: EventFilter,
                socket: SocketEventServer? = nil, logger: Logger) throws {
        self.socket = socket
        self.logger = logger
        if let httpBind {
            let policy = try AccessPolicy(bind: httpBind, token: configuration.http.token)
            let metrics = FacewatchMetrics()
            self.metrics = metrics
            web = WebSession(policy: policy, filter: pageFilter, video: configuration.http.video,
                             videoFPS: configuration.http.videoFPS, metrics: metrics, pages: try PageFiles())
        } else {
            metrics = nil
            web = nil
        }
        if let url = configuration.mqtt.url {
            let settings = configuration.mqtt
            mqtt = try MQTTPublisher(destination: MQTTDestination(url: url), qos: settings.qos, retain: settings.retain,
                                     queueLimit: settings.queue, reconnectMax: settings.reconnectMax, filter: filter)
        } else {
            mqtt = nil
        }
    }

    /// Standard output first (its failure ends the run), then every other sink.
    public func sink(primary: EventSink) -> EventSink {
        var others: [EventSink] = []
        if let socket { others.append(socket) }
        if let web { others += web.sinks }
        if let metrics { others.append(metrics) }
        if let mqtt { others.append(mqtt) }
        return others.isEmpty ? primary : FanOutSink(primary: primary, others: others)
    }

    /// A live pipeline writing to all of them (the web server is run beside it by `LiveRun`).
    public func pipeline(processor: FrameProcessor, primary: EventSink, statsInterval: Double,
                         upstreamDrops: @escaping () -> Int = { 0 }) -> LivePipeline {
        let web = self.web, mqtt = self.mqtt
        return LivePipeline(
            processor: processor, sink: sink(primary: primary), statsInterval: statsInterval, observer: metrics,
            brokerLost: mqtt.map { broker in { broker.lost } }, upstreamDrops: upstreamDrops,
            afterFrame: { result, events in web?.observe(result, events: events) })
    }

    /// Flushes MQTT and closes the socket (the web server stopped with its run, `LiveRun`).
    /// Returns the web server's error, if it failed.
    public func finish() -> Error? {
        guard !finished else { return nil }
        finished = true
        if let mqtt {
            let left = mqtt.close()
            if left > 0 { logger.warning("mqtt: \(left) events not acknowledged by the broker at exit") }
            if mqtt.lost > 0 { logger.warning("mqtt: \(mqtt.lost) events dropped while the broker was away (queue full)") }
        }
        socket?.close()
        return web?.error
    }
}
