import Foundation
import HTTPTypes
import Hummingbird
import Events
import Liveness
import Logging
import NIOCore
import ServiceLifecycle
import Telemetry

/// The HTTP face of a running pipeline (Hummingbird 2):
/// - `GET /` the live page, `GET /check` the page a person takes a liveness check on;
/// - `GET /events` Server-Sent Events, the same JSON as standard output, resumable with `Last-Event-ID`;
/// - `GET /stream.mjpeg` the annotated video (only with `http.video: true`);
/// - `POST /checks` starts a check (409 while one runs), `GET /checks/{id}` its state;
/// - `GET /metrics` Prometheus text.
/// Every request passes the `AccessPolicy` first.
public struct WebServer: Sendable {
    public let policy: AccessPolicy
    public let log: EventLog
    public let video: VideoFeed?
    public let checks: CheckRegistry
    public let metrics: FacewatchMetrics
    public let pages: PageFiles

    public init(policy: AccessPolicy, log: EventLog, video: VideoFeed?, checks: CheckRegistry, metrics: FacewatchMetrics,
                pages: PageFiles) {
        self.policy = policy
        self.log = log
        self.video = video
        self.checks = checks
        self.metrics = metrics
        self.pages = pages
    }

    /// The server as a service for a `ServiceGroup`: it serves until the group shuts down
    /// gracefully (it stops listening, and the event and video streams end after their current
    /// write) or is cancelled. `onListening` gets the bound port once it listens.
    public func service(logger: Logger, onListening: @escaping @Sendable (Int) -> Void = { _ in }) -> any Service {
        Application(
            router: makeRouter(),
            configuration: ApplicationConfiguration(address: .hostname(policy.host, port: policy.port), serverName: "facewatch"),
            onServerRunning: { channel in onListening(channel.localAddress?.port ?? 0) },
            logger: logger)
    }

    /// Whether a streaming response should end: its connection's task was cancelled or the
    /// server is shutting down.
    private static var streamEnded: Bool { Task.isCancelled || Task.isShuttingDownGracefully }

    func makeRouter() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: AccessMiddleware(policy: policy))
        router.get("/") { _, _ in page("index.html") }
        router.get("/check") { _, _ in page("check.html") }
        router.get("/static/{name}") { _, context in
            page(context.parameters.get("name") ?? "")
        }
        router.get("/events") { request, _ in events(lastEventID: request.headers[.lastEventID]) }
        router.get("/stream.mjpeg") { _, _ in stream() }
        router.post("/checks") { request, _ in
            try await startCheck(try await request.body.collect(upTo: 64 * 1024))
        }
        router.get("/checks/{id}") { _, context in
            guard let snapshot = checks.snapshot(context.parameters.get("id") ?? "") else {
                return Self.json(.notFound, #"{"error":"no such check"}"#)
            }
            return Self.json(.ok, snapshot.json)
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(string: metrics.exposition())))
        }
        return router
    }

    private func page(_ name: String) -> Response {
        guard let file = pages.files[name] else { return Self.json(.notFound, #"{"error":"not found"}"#) }
        return Response(status: .ok, headers: [.contentType: file.type, .cacheControl: "no-cache"],
                        body: .init(byteBuffer: ByteBuffer(bytes: file.body)))
    }

    private func events(lastEventID: String?) -> Response {
        let log = self.log
        let start = log.start(lastEventID: lastEventID)
        return Response(
            status: .ok,
            headers: [.contentType: "text/event-stream", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                try await writer.write(ByteBuffer(string: "retry: 1000\n\n"))
                var cursor = start
                // Subscribed before the first read, so an event stored meanwhile still wakes it.
                try await Self.whileStreaming(log.arrivals) {
                    if let new = log.messages(after: cursor) {
                        try await writer.write(new.buffer)
                        cursor = new.through
                    }
                }
                try await writer.finish(nil)
            })
    }

    /// Runs `send` at once and again every time `notifier` wakes it, until the client goes away
    /// (its task is cancelled) or the server shuts down.
    private static func whileStreaming(_ notifier: ChangeNotifier, _ send: () async throws -> Void) async throws {
        let subscription = notifier.subscribe()
        try await withGracefulShutdownHandler {
            var wakeUps = subscription.wakeUps.makeAsyncIterator()
            repeat {
                guard !streamEnded else { return }
                try await send()
            } while await wakeUps.next() != nil
        } onGracefulShutdown: {
            subscription.finish()
        }
        subscription.finish()
    }

    private func stream() -> Response {
        guard let video else {
            return Self.json(.notFound, #"{"error":"video is off; set http.video to true in config.json to serve it"}"#)
        }
        return Response(
            status: .ok,
            headers: [.contentType: "multipart/x-mixed-replace; boundary=\(VideoFeed.boundary)", .cacheControl: "no-cache"],
            body: ResponseBody { writer in
                video.viewerJoined()
                defer { video.viewerLeft() }
                var sequence = 0
                try await Self.whileStreaming(video.pictures) {
                    if let picture = video.picture(after: sequence) {
                        sequence = picture.sequence
                        try await writer.write(ByteBuffer(bytes: VideoFeed.part(picture.jpeg)))
                    }
                }
                try await writer.finish(nil)
            })
    }

    private func startCheck(_ body: ByteBuffer) async throws -> Response {
        let request: CheckRequest
        do {
            request = try CheckRequest(json: Data(body.readableBytesView))
        } catch {
            return Self.json(.badRequest, Self.errorJSON("\(error)"))
        }
        do {
            let snapshot = try checks.start(request.challenge, settings: request.settings, seed: request.seed)
            return Self.json(.created, snapshot.json, location: "/checks/\(snapshot.id)")
        } catch let conflict as CheckRegistry.Conflict {
            return Self.json(.conflict, Self.errorJSON(conflict.description, running: conflict.runningID))
        }
    }

    static func errorJSON(_ message: String, running: String? = nil) -> String {
        var out: [UInt8] = Array(#"{"error":"#.utf8)
        JSONString.append(message, to: &out)
        if let running {
            out += Array(#","running":"#.utf8)
            JSONString.append(running, to: &out)
        }
        out.append(0x7D)
        return String(decoding: out, as: UTF8.self)
    }

    static func json(_ status: HTTPResponse.Status, _ text: String, location: String? = nil) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if let location { headers[.location] = location }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: text)))
    }
}

extension HTTPField.Name {
    static let lastEventID = Self("Last-Event-ID")!
}

/// Lets a request through when the `AccessPolicy` allows it; a page opened with `?token=` also
/// gets the token as a cookie, so its scripts' requests carry it.
struct AccessMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    let policy: AccessPolicy

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let query = request.uri.queryParameters.get("token")
        guard policy.allows(authorization: request.headers[.authorization],
                            cookie: request.cookies[AccessPolicy.cookieName]?.value, query: query) else {
            return Response(status: .unauthorized,
                            headers: [.contentType: "application/json", .wwwAuthenticate: "Bearer"],
                            body: .init(byteBuffer: ByteBuffer(string: #"{"error":"a token is needed: Authorization: Bearer TOKEN, or open the page with ?token=TOKEN"}"#)))
        }
        var response = try await next(request, context)
        if let query, policy.token != nil {
            response.setCookie(Cookie(name: AccessPolicy.cookieName, value: query, path: "/", httpOnly: true, sameSite: .strict))
        }
        return response
    }
}
