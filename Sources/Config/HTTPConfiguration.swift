/// The `http` section of config.json: where `serve` and `run --http` listen and who may look.
public struct HTTPConfiguration: Sendable, Equatable {
    /// `host:port` to listen on. Anything but a loopback address needs a token.
    public var bind = "127.0.0.1:8080"
    /// Shared secret a client sends as `Authorization: Bearer …` or the `facewatch_token` cookie
    /// (nil: none, allowed on loopback only).
    public var token: String?
    /// Whether `/stream.mjpeg` serves the annotated camera (frames of a face are personal data).
    public var video = false
    /// Most frames per second sent to each video viewer.
    public var videoFPS = 10.0

    public init() {}
}
