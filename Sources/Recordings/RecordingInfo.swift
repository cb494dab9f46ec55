import Foundation

/// The contents of `recording.json` (shared/spec/recording-format.md).
public struct RecordingInfo: Codable, Sendable, Equatable {
    public var format = "facewatch-recording"
    public var version = 1
    public var width: Int
    public var height: Int
    public var fps: Double
    /// The camera's pixel format, e.g. `MJPG`; frames are stored as JPEG whatever it was.
    public var pixelFormat: String
    public var frameCount: Int
    public var source: String
    /// ISO 8601 time the recording was made.
    public var created: String

    public init(width: Int, height: Int, fps: Double, pixelFormat: String = "MJPG", frameCount: Int = 0,
                source: String, created: Date = Date()) {
        self.width = width
        self.height = height
        self.fps = fps
        self.pixelFormat = pixelFormat
        self.frameCount = frameCount
        self.source = source
        self.created = ISO8601DateFormatter().string(from: created)
    }

    enum CodingKeys: String, CodingKey {
        case format, version, width, height, fps, source, created
        case pixelFormat = "pixel_format"
        case frameCount = "frame_count"
    }
}
