import CV4L2
import Foundation

/// A V4L2 video output node, such as a v4l2loopback device, fed whole frames through streaming
/// I/O (mapped buffers queued with VIDIOC_QBUF): what is queued comes out of the node's capture
/// side as camera frames for any reader, with the timestamp the writer gave it.
public final class V4L2Output: VideoOutput {
    public let path: String
    /// What the device granted for the asked format (v4l2loopback may round the size).
    public let layout: PixelLayout
    private var fd: Int32
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    /// Frames queued so far: the first `buffers.count` use each buffer once, later ones reuse
    /// the buffer VIDIOC_DQBUF hands back.
    private var queued = 0

    /// Buffers asked for (the driver may grant fewer; v4l2loopback grants its `max_buffers`).
    static let bufferCount = 4

    /// Opens `path`, sets its output format (VIDIOC_S_FMT), maps its buffers and starts
    /// streaming. `frameBytes` is the largest frame that will be written (for JPEG formats;
    /// uncompressed ones follow from the size).
    public init(path: String, format: FourCC, width: Int, height: Int, frameBytes: Int) throws {
        self.path = path
        var descriptor: Int32 = -1
        let code = fw_v4l2_output_open(path, &descriptor)
        guard code == 0 else { throw VideoDeviceError(device: path, call: "open", code: code) }
        var request = v4l2_format()
        request.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        request.fmt.pix.pixelformat = format.rawValue
        request.fmt.pix.width = UInt32(width)
        request.fmt.pix.height = UInt32(height)
        request.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        request.fmt.pix.colorspace = V4L2_COLORSPACE_SRGB.rawValue
        let bytesPerPixel = format == .yuyv ? 2 : 1
        request.fmt.pix.bytesperline = format.isJPEG ? 0 : UInt32(width * bytesPerPixel)
        request.fmt.pix.sizeimage = UInt32(format.isJPEG ? frameBytes : width * height * bytesPerPixel)
        let set = fw_v4l2_output_s_fmt(descriptor, &request)
        guard set == 0 else {
            _ = fw_v4l2_output_close(descriptor)
            throw VideoDeviceError(device: path, call: "VIDIOC_S_FMT", code: set)
        }
        fd = descriptor
        let pix = request.fmt.pix
        layout = PixelLayout(fourcc: FourCC(rawValue: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                             bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage))
        do {
            try mapBuffers()
            try check(fw_v4l2_output_streamon(fd), "VIDIOC_STREAMON")
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    private func mapBuffers() throws {
        var request = v4l2_requestbuffers()
        request.count = UInt32(Self.bufferCount)
        request.type = V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue
        request.memory = V4L2_MEMORY_MMAP.rawValue
        try check(fw_v4l2_output_reqbufs(fd, &request), "VIDIOC_REQBUFS")
        guard request.count > 0 else { throw VideoDeviceError(device: path, call: "VIDIOC_REQBUFS", code: ENOMEM) }
        for index in 0..<Int(request.count) {
            var buffer = v4l2_buffer(mmapIndex: index, type: V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue)
            try check(fw_v4l2_output_querybuf(fd, &buffer), "VIDIOC_QUERYBUF")
            var address: UnsafeMutableRawPointer?
            try check(fw_v4l2_output_mmap(fd, Int(buffer.length), Int64(buffer.m.offset), &address), "mmap")
            buffers.append(UnsafeMutableRawBufferPointer(start: address, count: Int(buffer.length)))
        }
    }

    private func check(_ code: Int32, _ call: String) throws {
        guard code == 0 else { throw VideoDeviceError(device: path, call: call, code: fd < 0 ? EBADF : code) }
    }

    /// Queues one frame stamped `timestamp` (seconds on CLOCK_MONOTONIC, the clock drivers stamp
    /// with); nil lets the driver stamp it with the time it was queued. EMSGSIZE when the frame is
    /// larger than the device's buffers.
    public func write(_ frame: UnsafeRawBufferPointer, timestamp: Double? = nil) throws {
        guard fd >= 0 else { throw VideoDeviceError(device: path, call: "VIDIOC_QBUF", code: EBADF) }
        var buffer = v4l2_buffer(mmapIndex: queued, type: V4L2_BUF_TYPE_VIDEO_OUTPUT.rawValue)
        if queued >= buffers.count {  // all queued once: reuse the one the driver hands back
            try check(fw_v4l2_output_dqbuf(fd, &buffer), "VIDIOC_DQBUF")
        }
        let index = Int(buffer.index)
        guard index < buffers.count else { throw VideoDeviceError(device: path, call: "VIDIOC_DQBUF", code: EINVAL) }
        let memory = buffers[index]
        guard frame.count <= memory.count else { throw VideoDeviceError(device: path, call: "VIDIOC_QBUF", code: EMSGSIZE) }
        memory.copyMemory(from: frame)
        buffer.bytesused = UInt32(frame.count)
        buffer.field = V4L2_FIELD_NONE.rawValue
        buffer.flags = UInt32(V4L2_BUF_FLAG_TIMESTAMP_COPY)
        if let timestamp, timestamp > 0 {
            let seconds = timestamp.rounded(.down)
            buffer.timestamp = timeval(tv_sec: Int(seconds), tv_usec: Int(((timestamp - seconds) * 1e6).rounded()))
            if buffer.timestamp.tv_usec >= 1_000_000 {
                buffer.timestamp.tv_sec += 1
                buffer.timestamp.tv_usec -= 1_000_000
            }
        }
        try check(fw_v4l2_output_qbuf(fd, &buffer), "VIDIOC_QBUF")
        queued += 1
    }

    public func close() {
        for memory in buffers {
            if let base = memory.baseAddress { _ = fw_v4l2_output_munmap(base, memory.count) }
        }
        buffers = []
        guard fd >= 0 else { return }
        _ = fw_v4l2_output_close(fd)
        fd = -1
    }
}
