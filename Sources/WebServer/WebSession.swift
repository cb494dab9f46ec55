import Events
import Foundation
import Liveness
import Logging
import Pipeline
import Recordings
import ServiceLifecycle
import Telemetry

/// Everything the web server shows, wired to one live pipeline: the event log (a sink), the
/// metrics (a sink and the pipeline's observer), the video feed and the checks (fed after every
/// frame), and the server itself, a service of the daemon's `ServiceGroup`.
///
/// `@unchecked Sendable`: every stored `var` is read and written only with `lock` held.
public final class WebSession: @unchecked Sendable {
    public let server: WebServer
    private let lock = NSLock()
    private var failure: Error?

    public init(policy: AccessPolicy, filter: EventFilter, video: Bool, videoFPS: Double, metrics: FacewatchMetrics,
                pages: PageFiles) {
        server = WebServer(policy: policy, log: EventLog(filter: filter), video: video ? VideoFeed(fps: videoFPS) : nil,
                           checks: CheckRegistry(concluded: metrics.checkConcluded), metrics: metrics, pages: pages)
    }

    /// The sinks to add to the pipeline's fan-out.
    public var sinks: [EventSink] { [server.log] }

    /// Feeds one processed frame to the running check and the video (on the processing queue).
    public func observe(_ result: FrameResult, events: [Event]) {
        server.checks.observe(frame: result.index, t: result.t, events: events, faces: result.faces,
                              facesInView: result.facesInView)
        server.video?.offer(result.frame, faces: result.faces, events: events)
    }

    /// The server as a service of a `ServiceGroup` (the daemon's): it serves until the group shuts
    /// down; a failure to serve (the port is taken) is kept as `error` and thrown, which ends the
    /// group.
    public func service(logger: Logger) -> any Service {
        let policy = server.policy
        let service = server.service(logger: logger) { port in
            logger.info("serving http://\(policy.address(port: port))/")
        }
        return ClosureService { [self] in
            do {
                try await service.run()
            } catch {
                let serveError = ServeError(address: policy.address(port: policy.port), error: error)
                lock.withLock { failure = serveError }
                throw serveError
            }
        }
    }

    /// Fails a running check: the stream ended.
    public func finishChecks() {
        server.checks.finish()
    }

    /// The server's error, if it stopped on one.
    public var error: Error? {
        lock.withLock { failure }
    }
}
