/// Where a `LoopbackFeeder` writes frames: a V4L2 output node (`V4L2Output`), or a stand-in in
/// tests.
public protocol VideoOutput: AnyObject {
    /// The format the output granted: fourcc, size and line stride.
    var layout: PixelLayout { get }
    /// Writes one whole frame stamped `timestamp` (seconds on CLOCK_MONOTONIC; nil: when written).
    func write(_ frame: UnsafeRawBufferPointer, timestamp: Double?) throws
    /// Releases the device; later writes fail.
    func close()
}
