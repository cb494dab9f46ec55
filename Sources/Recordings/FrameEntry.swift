/// One line of `frames.jsonl`: a frame's number, capture time and byte range in `frames.mjpeg`.
public struct FrameEntry: Codable, Sendable, Equatable {
    public var index: Int
    /// Seconds since the first frame (the camera's timestamp when recorded live).
    public var t: Double
    public var offset: Int
    public var length: Int

    public init(index: Int, t: Double, offset: Int, length: Int) {
        self.index = index
        self.t = t
        self.offset = offset
        self.length = length
    }
}
