import CV4L2
import Foundation

/// A real V4L2 device node, opened non-blocking through libv4l2 (CV4L2), with poll(2) for waiting.
public final class V4L2Device: VideoDevice {
    public let path: String
    private var fd: Int32

    private static let captureType = V4L2_BUF_TYPE_VIDEO_CAPTURE.rawValue
    private static let mmapMemory = V4L2_MEMORY_MMAP.rawValue

    /// Opens `path` (e.g. `/dev/video0`) read-write and non-blocking.
    public init(path: String) throws {
        self.path = path
        var descriptor: Int32 = -1
        let code = fw_v4l2_open(path, &descriptor)
        guard code == 0 else { throw VideoDeviceError(device: path, call: "open", code: code) }
        fd = descriptor
    }

    deinit {
        close()
    }

    private func check(_ code: Int32, _ call: String) throws {
        guard code == 0 else { throw VideoDeviceError(device: path, call: call, code: fd < 0 ? EBADF : code) }
    }

    /// A fixed-size C char array (a NUL-terminated string) as a Swift string.
    private static func string<T>(_ tuple: T) -> String {
        withUnsafeBytes(of: tuple) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    public func capabilities() throws -> DeviceCapabilities {
        var capability = v4l2_capability()
        try check(fw_v4l2_querycap(fd, &capability), "VIDIOC_QUERYCAP")
        let hasDeviceCaps = capability.capabilities & UInt32(V4L2_CAP_DEVICE_CAPS) != 0
        return DeviceCapabilities(driver: Self.string(capability.driver), card: Self.string(capability.card),
                                  busInfo: Self.string(capability.bus_info),
                                  capabilities: hasDeviceCaps ? capability.device_caps : capability.capabilities)
    }

    public func formats() throws -> [FormatDescription] {
        var result: [FormatDescription] = []
        while true {
            var description = v4l2_fmtdesc()
            description.index = UInt32(result.count)
            description.type = Self.captureType
            let code = fw_v4l2_enum_fmt(fd, &description)
            if code == EINVAL { return result }
            try check(code, "VIDIOC_ENUM_FMT")
            result.append(FormatDescription(fourcc: FourCC(rawValue: description.pixelformat),
                                            description: Self.string(description.description),
                                            compressed: description.flags & UInt32(V4L2_FMT_FLAG_COMPRESSED) != 0,
                                            emulated: description.flags & UInt32(V4L2_FMT_FLAG_EMULATED) != 0))
        }
    }

    public func frameSizes(_ format: FourCC) throws -> [FrameSizeRange] {
        var result: [FrameSizeRange] = []
        while true {
            var size = v4l2_frmsizeenum()
            size.index = UInt32(result.count)
            size.pixel_format = format.rawValue
            let code = fw_v4l2_enum_framesizes(fd, &size)
            if code == EINVAL || code == ENOTTY { return result }
            try check(code, "VIDIOC_ENUM_FRAMESIZES")
            guard size.type == V4L2_FRMSIZE_TYPE_DISCRETE.rawValue else {
                let s = size.stepwise
                return [.stepwise(minWidth: Int(s.min_width), maxWidth: Int(s.max_width), stepWidth: Int(s.step_width),
                                  minHeight: Int(s.min_height), maxHeight: Int(s.max_height), stepHeight: Int(s.step_height))]
            }
            result.append(.discrete(width: Int(size.discrete.width), height: Int(size.discrete.height)))
        }
    }

    public func frameIntervals(_ format: FourCC, width: Int, height: Int) throws -> [FrameIntervalRange] {
        func interval(_ fraction: v4l2_fract) -> FrameInterval {
            FrameInterval(numerator: Int(fraction.numerator), denominator: Int(fraction.denominator))
        }
        var result: [FrameIntervalRange] = []
        while true {
            var entry = v4l2_frmivalenum()
            entry.index = UInt32(result.count)
            entry.pixel_format = format.rawValue
            entry.width = UInt32(width)
            entry.height = UInt32(height)
            let code = fw_v4l2_enum_frameintervals(fd, &entry)
            if code == EINVAL || code == ENOTTY { return result }
            try check(code, "VIDIOC_ENUM_FRAMEINTERVALS")
            guard entry.type == V4L2_FRMIVAL_TYPE_DISCRETE.rawValue else {
                let s = entry.stepwise
                return [.stepwise(min: interval(s.min), max: interval(s.max), step: interval(s.step))]
            }
            result.append(.discrete(interval(entry.discrete)))
        }
    }

    private static func layout(_ format: v4l2_format) -> PixelLayout {
        let pix = format.fmt.pix
        return PixelLayout(fourcc: FourCC(rawValue: pix.pixelformat), width: Int(pix.width), height: Int(pix.height),
                           bytesPerLine: Int(pix.bytesperline), sizeImage: Int(pix.sizeimage))
    }

    public func format() throws -> PixelLayout {
        var format = v4l2_format()
        format.type = Self.captureType
        try check(fw_v4l2_g_fmt(fd, &format), "VIDIOC_G_FMT")
        return Self.layout(format)
    }

    public func setFormat(_ fourcc: FourCC, width: Int, height: Int) throws -> PixelLayout {
        var format = v4l2_format()
        format.type = Self.captureType
        format.fmt.pix.pixelformat = fourcc.rawValue
        format.fmt.pix.width = UInt32(width)
        format.fmt.pix.height = UInt32(height)
        format.fmt.pix.field = V4L2_FIELD_NONE.rawValue
        try check(fw_v4l2_s_fmt(fd, &format), "VIDIOC_S_FMT")
        return Self.layout(format)
    }

    public func setFrameInterval(_ interval: FrameInterval) throws -> FrameInterval? {
        var parameters = v4l2_streamparm()
        parameters.type = Self.captureType
        parameters.parm.capture.timeperframe = v4l2_fract(numerator: UInt32(interval.numerator),
                                                          denominator: UInt32(interval.denominator))
        try check(fw_v4l2_s_parm(fd, &parameters), "VIDIOC_S_PARM")
        let capture = parameters.parm.capture
        guard capture.capability & UInt32(V4L2_CAP_TIMEPERFRAME) != 0 else { return nil }
        return FrameInterval(numerator: Int(capture.timeperframe.numerator),
                             denominator: Int(capture.timeperframe.denominator))
    }

    public func requestBuffers(_ count: Int) throws -> Int {
        var request = v4l2_requestbuffers()
        request.count = UInt32(count)
        request.type = Self.captureType
        request.memory = Self.mmapMemory
        try check(fw_v4l2_reqbufs(fd, &request), "VIDIOC_REQBUFS")
        return Int(request.count)
    }

    public func queryBuffer(_ index: Int) throws -> BufferInfo {
        var buffer = v4l2_buffer(mmapIndex: index, type: Self.captureType)
        try check(fw_v4l2_querybuf(fd, &buffer), "VIDIOC_QUERYBUF")
        return BufferInfo(index: index, offset: Int(buffer.m.offset), length: Int(buffer.length))
    }

    public func map(_ buffer: BufferInfo) throws -> UnsafeRawBufferPointer {
        var address: UnsafeMutableRawPointer?
        try check(fw_v4l2_mmap(fd, buffer.length, Int64(buffer.offset), &address), "mmap")
        return UnsafeRawBufferPointer(start: address, count: buffer.length)
    }

    public func unmap(_ memory: UnsafeRawBufferPointer) {
        guard let base = memory.baseAddress else { return }
        _ = fw_v4l2_munmap(UnsafeMutableRawPointer(mutating: base), memory.count)
    }

    public func queue(_ index: Int) throws {
        var buffer = v4l2_buffer(mmapIndex: index, type: Self.captureType)
        try check(fw_v4l2_qbuf(fd, &buffer), "VIDIOC_QBUF")
    }

    public func dequeue() throws -> DequeuedBuffer {
        var buffer = v4l2_buffer(mmapIndex: 0, type: Self.captureType)
        try check(fw_v4l2_dqbuf(fd, &buffer), "VIDIOC_DQBUF")
        var timestamp = Double(buffer.timestamp.tv_sec) + Double(buffer.timestamp.tv_usec) / 1e6
        if timestamp == 0 {  // a driver without timestamps: the time we got it is the best there is
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            timestamp = Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
        }
        return DequeuedBuffer(index: Int(buffer.index), bytesUsed: Int(buffer.bytesused), timestamp: timestamp,
                              sequence: buffer.sequence, damaged: buffer.flags & UInt32(V4L2_BUF_FLAG_ERROR) != 0)
    }

    public func streamOn() throws {
        try check(fw_v4l2_streamon(fd, Self.captureType), "VIDIOC_STREAMON")
    }

    public func streamOff() throws {
        try check(fw_v4l2_streamoff(fd, Self.captureType), "VIDIOC_STREAMOFF")
    }

    public func poll(timeout: Double) throws -> PollResult {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min(max((timeout * 1000).rounded(.up), 0), Double(Int32.max)))
        let count = Glibc.poll(&entry, 1, milliseconds)
        if count < 0 { throw VideoDeviceError(device: path, call: "poll", code: errno) }
        if count == 0 { return .timedOut }
        if entry.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 { return .failed }
        return .readable
    }

    public func close() {
        guard fd >= 0 else { return }
        _ = fw_v4l2_close(fd)
        fd = -1
    }
}
