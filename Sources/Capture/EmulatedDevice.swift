import Foundation
import Imaging

/// One open node of an `EmulatedCamera`. It keeps V4L2's buffer queue over its own memory:
/// buffers belong to the application until queued; a frame that appears while streaming fills
/// the oldest queued buffer and moves it to the done queue (or is dropped, with a gap in the
/// sequence numbers, when none is queued); DQBUF takes the oldest done buffer or fails with EAGAIN.
/// Misuse fails as a driver would: EINVAL for a buffer queued twice or dequeued while not
/// streaming, EBUSY for a format change or REQBUFS while buffers are allocated or mapped.
public final class EmulatedDevice: VideoDevice {
    public var path: String { camera.name }

    private enum State { case application, queued, done }

    private struct Buffer {
        let memory: UnsafeMutableRawBufferPointer
        var state = State.application
        var mapped = false
        var filled = DequeuedBuffer(index: 0, bytesUsed: 0, timestamp: 0, sequence: 0)
    }

    private let camera: EmulatedCamera
    private let openedAt: Double
    private var closed = false
    private var layout: PixelLayout
    private let interval: FrameInterval
    private var buffers: [Buffer] = []
    private var incoming: [Int] = []
    private var done: [Int] = []
    private var streaming = false
    /// The next scene frame to capture.
    private var nextFrame = 0
    private var sequence: UInt32 = 0
    private var decoder = JPEGDecoder()
    private var gray = GrayImage(width: 0, height: 0)

    init(camera: EmulatedCamera, openedAt: Double) {
        self.camera = camera
        self.openedAt = openedAt
        interval = FrameInterval(fps: camera.recording.info.fps)
        layout = PixelLayout(fourcc: .mjpeg, width: 0, height: 0, bytesPerLine: 0, sizeImage: 0)
        layout = makeLayout(camera.options.formats.first ?? .mjpeg)
    }

    deinit {
        for buffer in buffers { buffer.memory.deallocate() }
    }

    /// When the node stops working: the first unplug after it was opened.
    private var diesAt: Double { camera.firstUnplug(after: openedAt) }

    private func failure(_ call: String, _ code: Int32) -> VideoDeviceError {
        VideoDeviceError(device: path, call: call, code: code)
    }

    /// Throws EBADF on a closed node and ENODEV once the camera was unplugged.
    private func checkAlive(_ call: String) throws {
        if closed { throw failure(call, EBADF) }
        if camera.clock.now() >= diesAt { throw failure(call, ENODEV) }
    }

    private var offered: [FourCC] { camera.options.formats }

    private func makeLayout(_ fourcc: FourCC) -> PixelLayout {
        let info = camera.recording.info
        let padding = camera.options.rowPadding
        switch fourcc {
        case .yuyv:
            return PixelLayout(fourcc: fourcc, width: info.width, height: info.height,
                               bytesPerLine: 2 * info.width + padding, sizeImage: (2 * info.width + padding) * info.height)
        case .grey:
            return PixelLayout(fourcc: fourcc, width: info.width, height: info.height,
                               bytesPerLine: info.width + padding, sizeImage: (info.width + padding) * info.height)
        default:
            let largest = camera.recording.frames.map(\.length).max() ?? 0
            return PixelLayout(fourcc: fourcc, width: info.width, height: info.height, bytesPerLine: 0,
                               sizeImage: max(info.width * info.height, largest))
        }
    }

    // MARK: Enumeration and format

    public func capabilities() throws -> DeviceCapabilities {
        try checkAlive("VIDIOC_QUERYCAP")
        return DeviceCapabilities(driver: "facewatch-emulated", card: camera.options.card, busInfo: path,
                                  capabilities: camera.options.capabilities)
    }

    public func formats() throws -> [FormatDescription] {
        try checkAlive("VIDIOC_ENUM_FMT")
        return offered.map { fourcc in
            let names: [FourCC: String] = [.mjpeg: "Motion-JPEG", .jpeg: "JFIF JPEG", .yuyv: "YUYV 4:2:2", .grey: "8-bit Greyscale"]
            return FormatDescription(fourcc: fourcc, description: names[fourcc] ?? "\(fourcc)", compressed: fourcc.isJPEG)
        }
    }

    public func frameSizes(_ format: FourCC) throws -> [FrameSizeRange] {
        try checkAlive("VIDIOC_ENUM_FRAMESIZES")
        guard offered.contains(format) else { return [] }
        return [.discrete(width: camera.recording.info.width, height: camera.recording.info.height)]
    }

    public func frameIntervals(_ format: FourCC, width: Int, height: Int) throws -> [FrameIntervalRange] {
        try checkAlive("VIDIOC_ENUM_FRAMEINTERVALS")
        let info = camera.recording.info
        guard offered.contains(format), width == info.width, height == info.height else { return [] }
        return [.discrete(interval)]
    }

    public func format() throws -> PixelLayout {
        try checkAlive("VIDIOC_G_FMT")
        return layout
    }

    /// Grants the asked format when offered (else the first offered one, as drivers substitute)
    /// at the recording's size, the only one there is.
    public func setFormat(_ format: FourCC, width: Int, height: Int) throws -> PixelLayout {
        try checkAlive("VIDIOC_S_FMT")
        guard buffers.isEmpty else { throw failure("VIDIOC_S_FMT", EBUSY) }
        guard let granted = offered.contains(format) ? format : offered.first else { throw failure("VIDIOC_S_FMT", EINVAL) }
        layout = makeLayout(granted)
        return layout
    }

    /// Grants the recording's frame rate, the only one there is.
    public func setFrameInterval(_ interval: FrameInterval) throws -> FrameInterval? {
        try checkAlive("VIDIOC_S_PARM")
        return self.interval
    }

    // MARK: Buffers

    public func requestBuffers(_ count: Int) throws -> Int {
        try checkAlive("VIDIOC_REQBUFS")
        guard !streaming, !buffers.contains(where: \.mapped) else { throw failure("VIDIOC_REQBUFS", EBUSY) }
        for buffer in buffers { buffer.memory.deallocate() }
        buffers = []
        incoming = []
        done = []
        let length = (layout.sizeImage + 4095) / 4096 * 4096
        buffers = (0..<min(max(count, 0), 32)).map { _ in
            Buffer(memory: .allocate(byteCount: length, alignment: 4096))
        }
        return buffers.count
    }

    public func queryBuffer(_ index: Int) throws -> BufferInfo {
        try checkAlive("VIDIOC_QUERYBUF")
        guard buffers.indices.contains(index) else { throw failure("VIDIOC_QUERYBUF", EINVAL) }
        let length = buffers[index].memory.count
        return BufferInfo(index: index, offset: index * length, length: length)
    }

    public func map(_ buffer: BufferInfo) throws -> UnsafeRawBufferPointer {
        if closed { throw failure("mmap", EBADF) }
        guard buffers.indices.contains(buffer.index), buffer.offset == buffer.index * buffers[buffer.index].memory.count,
              buffer.length == buffers[buffer.index].memory.count else { throw failure("mmap", EINVAL) }
        buffers[buffer.index].mapped = true
        return UnsafeRawBufferPointer(buffers[buffer.index].memory)
    }

    public func unmap(_ memory: UnsafeRawBufferPointer) {
        if let index = buffers.firstIndex(where: { UnsafeRawPointer($0.memory.baseAddress) == memory.baseAddress }) {
            buffers[index].mapped = false
        }
    }

    public func queue(_ index: Int) throws {
        try checkAlive("VIDIOC_QBUF")
        guard buffers.indices.contains(index), buffers[index].state == .application else {
            throw failure("VIDIOC_QBUF", EINVAL)
        }
        buffers[index].state = .queued
        incoming.append(index)
    }

    public func dequeue() throws -> DequeuedBuffer {
        if closed { throw failure("VIDIOC_DQBUF", EBADF) }
        if camera.takeInterrupt() { throw failure("VIDIOC_DQBUF", EINTR) }
        if camera.takeSpuriousAgain() { throw failure("VIDIOC_DQBUF", EAGAIN) }
        let now = camera.clock.now()
        capture(until: now)
        if now >= diesAt { throw failure("VIDIOC_DQBUF", ENODEV) }
        guard streaming else { throw failure("VIDIOC_DQBUF", EINVAL) }
        guard !done.isEmpty else {
            camera.emptyDequeues += 1
            throw failure("VIDIOC_DQBUF", EAGAIN)
        }
        let index = done.removeFirst()
        buffers[index].state = .application
        return buffers[index].filled
    }

    // MARK: Streaming

    public func streamOn() throws {
        try checkAlive("VIDIOC_STREAMON")
        guard !buffers.isEmpty else { throw failure("VIDIOC_STREAMON", EINVAL) }
        guard !streaming else { return }
        let now = camera.clock.now()
        streaming = true
        sequence = 0
        camera.startScene(at: now)
        nextFrame = camera.firstFrame(atOrAfter: now)
    }

    public func streamOff() throws {
        if closed { throw failure("VIDIOC_STREAMOFF", EBADF) }
        streaming = false
        incoming = []
        done = []
        for index in buffers.indices { buffers[index].state = .application }
        if camera.clock.now() >= diesAt { throw failure("VIDIOC_STREAMOFF", ENODEV) }
    }

    public func poll(timeout: Double) throws -> PollResult {
        if closed { throw failure("poll", EBADF) }
        if camera.takeInterrupt() { throw failure("poll", EINTR) }
        let clock = camera.clock
        var now = clock.now()
        let limit = now + max(timeout, 0)
        while true {
            capture(until: now)
            if now >= diesAt || !streaming { return .failed }
            if !done.isEmpty { return .readable }
            // Wake at the next frame that will fill a buffer, at the unplug, or at the timeout.
            var wake = min(diesAt, limit)
            if !incoming.isEmpty {
                var k = nextFrame
                while camera.arrival(k) < wake {
                    if !camera.isStalled(at: camera.arrival(k)) {
                        wake = camera.arrival(k)
                        break
                    }
                    k += 1
                }
            }
            clock.sleep(wake - now)
            now = max(clock.now(), wake)
            if wake == limit && wake < diesAt {
                capture(until: now)
                return done.isEmpty ? .timedOut : .readable
            }
        }
    }

    public func close() {
        closed = true
        streaming = false
    }

    // MARK: The sensor

    /// Captures every frame that appeared up to `now` while the node was alive and streaming.
    private func capture(until now: Double) {
        guard streaming, !closed else { return }
        while true {
            let time = camera.arrival(nextFrame)
            guard time <= now, time < diesAt else { return }
            if !camera.isStalled(at: time) {
                if !incoming.isEmpty { fill(incoming.removeFirst(), frame: nextFrame, time: time) }
                sequence &+= 1
            }
            nextFrame += 1
        }
    }

    private func fill(_ index: Int, frame k: Int, time: Double) {
        let memory = buffers[index].memory
        var used = 0
        var damaged = false
        let jpeg = try? camera.recording.jpeg(camera.recordingFrame(k))
        switch layout.fourcc {
        case .mjpeg, .jpeg:
            if let jpeg {
                used = min(jpeg.count, memory.count)
                damaged = jpeg.count > memory.count
                jpeg.prefix(used).withUnsafeBytes { memory.copyMemory(from: $0) }
            } else {
                damaged = true
            }
        case .yuyv, .grey:
            if let jpeg, (try? decoder.decode(jpeg, into: &gray, conversion: .luma)) != nil,
               gray.width == layout.width, gray.height == layout.height {
                LumaCopy.write(gray, layout: layout, into: memory)
                used = layout.sizeImage
            } else {
                damaged = true
            }
        default:
            damaged = true
        }
        if let keep = camera.truncation(of: k) { used = min(used, max(keep, 0)) }
        buffers[index].filled = DequeuedBuffer(index: index, bytesUsed: used, timestamp: time, sequence: sequence, damaged: damaged)
        buffers[index].state = .done
        done.append(index)
    }
}
