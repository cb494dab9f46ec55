/// The V4L2 surface `Camera` uses: one open device node. `V4L2Device` is a real node through
/// libv4l2; `EmulatedDevice` plays a recording with the same buffer-queue rules.
///
/// Failing calls throw `VideoDeviceError` with the errno the driver gave (EAGAIN from
/// `dequeue` when no buffer is done, ENODEV once the device is unplugged, EINTR after a signal).
public protocol VideoDevice: AnyObject {
    /// The node's path (or the emulated device's name), for messages.
    var path: String { get }

    /// VIDIOC_QUERYCAP.
    func capabilities() throws -> DeviceCapabilities
    /// VIDIOC_ENUM_FMT over every index, for video capture.
    func formats() throws -> [FormatDescription]
    /// VIDIOC_ENUM_FRAMESIZES for a format; empty when the driver does not enumerate sizes.
    func frameSizes(_ format: FourCC) throws -> [FrameSizeRange]
    /// VIDIOC_ENUM_FRAMEINTERVALS for a format and size; empty when the driver does not enumerate them.
    func frameIntervals(_ format: FourCC, width: Int, height: Int) throws -> [FrameIntervalRange]
    /// VIDIOC_G_FMT: the current capture format.
    func format() throws -> PixelLayout
    /// VIDIOC_S_FMT: asks for a format and size; returns what the driver granted (it may adjust both).
    func setFormat(_ format: FourCC, width: Int, height: Int) throws -> PixelLayout
    /// VIDIOC_S_PARM: asks for a frame interval; returns the granted one, or nil when the driver
    /// has no frame-rate control (no `V4L2_CAP_TIMEPERFRAME`).
    func setFrameInterval(_ interval: FrameInterval) throws -> FrameInterval?

    /// VIDIOC_REQBUFS for memory-mapped buffers: returns how many the driver allocated (0 frees them).
    func requestBuffers(_ count: Int) throws -> Int
    /// VIDIOC_QUERYBUF.
    func queryBuffer(_ index: Int) throws -> BufferInfo
    /// Maps a buffer read-only; the memory stays valid until `unmap`.
    func map(_ buffer: BufferInfo) throws -> UnsafeRawBufferPointer
    /// Unmaps memory returned by `map`.
    func unmap(_ memory: UnsafeRawBufferPointer)
    /// VIDIOC_QBUF: hands a buffer to the driver to fill.
    func queue(_ index: Int) throws
    /// VIDIOC_DQBUF, non-blocking: the oldest filled buffer, or EAGAIN when none is ready.
    func dequeue() throws -> DequeuedBuffer
    /// VIDIOC_STREAMON.
    func streamOn() throws
    /// VIDIOC_STREAMOFF: stops capture and returns every buffer to the application.
    func streamOff() throws
    /// Waits up to `timeout` seconds for a filled buffer.
    func poll(timeout: Double) throws -> PollResult
    /// Closes the node (mapped memory must be unmapped first).
    func close()
}
