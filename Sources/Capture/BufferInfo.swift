/// A driver buffer as VIDIOC_QUERYBUF describes it: where to map it and how long it is.
public struct BufferInfo: Sendable, Equatable {
    public var index: Int
    /// The `mmap` offset (`m.offset`).
    public var offset: Int
    public var length: Int

    public init(index: Int, offset: Int, length: Int) {
        self.index = index
        self.offset = offset
        self.length = length
    }
}

/// A filled buffer taken from the driver by VIDIOC_DQBUF.
public struct DequeuedBuffer: Sendable, Equatable {
    public var index: Int
    /// Bytes of frame data at the start of the buffer.
    public var bytesUsed: Int
    /// Capture time in seconds, on CLOCK_MONOTONIC for drivers that say so (most do).
    public var timestamp: Double
    /// The driver's frame counter since STREAMON; a gap means the driver dropped frames
    /// because no buffer was queued.
    public var sequence: UInt32
    /// `V4L2_BUF_FLAG_ERROR`: the driver knows the data is damaged.
    public var damaged: Bool

    public init(index: Int, bytesUsed: Int, timestamp: Double, sequence: UInt32, damaged: Bool = false) {
        self.index = index
        self.bytesUsed = bytesUsed
        self.timestamp = timestamp
        self.sequence = sequence
        self.damaged = damaged
    }
}
