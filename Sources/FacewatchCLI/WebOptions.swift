import ArgumentParser
import Config

/// The web server options of `run` and `serve`; each overrides the `http.*` key of the same name.
struct WebOptions: ParsableArguments {
    @Option(help: "Serve the page, SSE events, checks and /metrics on HOST:PORT (serve's default: http.bind, 127.0.0.1:8080).")
    var http: String?

    @Option(help: "Token clients must send (Authorization: Bearer, or the page's ?token=); needed to bind beyond loopback. Default: http.token.")
    var token: String?

    @Flag(name: .customLong("video"), help: "Serve the annotated camera on /stream.mjpeg (default: http.video, off).")
    var video = false

    /// The config with these options applied, and the address to serve on (nil: no web server
    /// unless `serving`, which falls back to http.bind).
    func apply(to configuration: Configuration, serving: Bool) -> (Configuration, httpBind: String?) {
        var configuration = configuration
        if let token { configuration.http.token = token }
        if video { configuration.http.video = true }
        return (configuration, http ?? (serving ? configuration.http.bind : nil))
    }
}

/// The MQTT options of `run`, `serve` and `replay`; each overrides the `mqtt.*` key of the same name.
struct MQTTOptions: ParsableArguments {
    @Option(help: "Also publish every event to mqtt://HOST[:PORT]/TOPIC. Default: mqtt.url.")
    var mqtt: String?

    @Option(help: "MQTT quality of service 0, 1 or 2. Default: mqtt.qos (1).")
    var mqttQos: Int?

    @Flag(help: "Ask the broker to retain the last event. Default: mqtt.retain.")
    var mqttRetain = false

    @Option(help: "Events held while the broker is away before new ones are dropped and counted. Default: mqtt.queue.")
    var mqttQueue: Int?

    func validate() throws {
        if let mqttQos, !(0...2).contains(mqttQos) { throw ValidationError("--mqtt-qos must be 0, 1 or 2") }
        if let mqttQueue, mqttQueue < 1 { throw ValidationError("--mqtt-queue must be at least 1") }
    }

    func apply(to configuration: Configuration) -> Configuration {
        var configuration = configuration
        if let mqtt { configuration.mqtt.url = mqtt }
        if let mqttQos { configuration.mqtt.qos = mqttQos }
        if mqttRetain { configuration.mqtt.retain = true }
        if let mqttQueue { configuration.mqtt.queue = mqttQueue }
        return configuration
    }
}
