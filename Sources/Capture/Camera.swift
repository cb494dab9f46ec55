import Foundation
import Imaging
import Recordings

/// Live frames from a V4L2 camera (or an emulated one), as a `FrameSource`.
///
/// Opening checks the device streams video, negotiates the format (MJPG preferred, YUYV or GREY
/// luma otherwise; see `format` for what was granted), maps `settings.buffers` buffers and starts
/// streaming. `nextFrame()` waits up to `settings.pollTimeout` for a frame, then takes every
/// ready buffer and keeps only the newest, so a slow consumer always gets the latest picture and
/// never a backlog; the rest go straight back to the driver and are counted in `droppedFrames`.
///
/// Per-frame problems throw `FrameError` (the stream goes on): a poll timeout, a short or
/// truncated JPEG, a frame the driver marked damaged. An unplugged device throws
/// `CameraError.disconnected`; call `reopen()` (e.g. through `Reconnector`) to carry on. Frame
/// numbers and times continue across a reopen.
public final class Camera: FrameSource {
    /// Opens a device by name (see `VideoDevices.open`).
    public typealias Opener = (String) throws -> any VideoDevice

    public let settings: CameraSettings
    /// What the device granted (format, size, rate); updated by `reopen()`.
    public private(set) var format: CaptureFormat
    /// What VIDIOC_QUERYCAP said (card name, driver, bus).
    public private(set) var capabilities: DeviceCapabilities
    /// Frames the camera captured that were never delivered: older frames discarded for a newer
    /// one, plus frames the driver dropped for lack of a queued buffer (sequence gaps). Counted
    /// from the first frame delivered after (re)opening: what the driver captured and numbered
    /// before the first read (the stale frames in its queue, and those it dropped once the queue
    /// was full) is discarded and not a drop. Safe to read from any thread (a pipeline's `stats`
    /// read it on the processing thread while the capture thread counts).
    public var droppedFrames: Int { drops.value }
    /// Frames rejected as short, truncated or damaged.
    public private(set) var badFrames = 0
    /// Waits that ended without a frame.
    public private(set) var timeouts = 0
    /// Frames delivered (the next frame's index).
    public private(set) var deliveredFrames = 0

    private let opener: Opener
    private let clock: any CaptureClock
    private let drops = DropCount()
    private var session: CaptureSession?
    private var lastSequence: UInt32?
    /// Driver timestamp of time 0.
    private var timeBase: Double?
    private var lastT = 0.0
    /// The clock when the last frame (or the stream start) was seen, for the times of timeouts.
    private var lastSeen: Double
    /// Buffers the frames' bytes are copied into, used in turn. A frame shares its buffer's
    /// storage while the pipeline holds it; by the time the turn comes round again that frame
    /// has gone, so the copy reuses the storage instead of allocating. (A buffer still held is
    /// copied on write, like any value.)
    private var jpegBuffers = [Data](repeating: Data(), count: Camera.frameBuffers)
    private var grayBuffers = [GrayImage](repeating: GrayImage(width: 0, height: 0), count: Camera.frameBuffers)
    private var nextBuffer = 0
    /// Frames a pipeline holds at once: one being captured, one in the handoff, one processed,
    /// and one more for a recorder or sink that finishes with a frame after the next is taken.
    static let frameBuffers = 4

    /// A device that says a buffer is ready this many times in a row without one is reported
    /// like a timeout instead of being polled for ever.
    static let emptyWakeupLimit = 100

    /// Opens the camera and starts streaming. `opener` defaults to `VideoDevices.open` with `clock`.
    public init(settings: CameraSettings, clock: any CaptureClock = SystemClock(), opener: Opener? = nil) throws {
        self.settings = settings
        self.clock = clock
        self.opener = opener ?? { try VideoDevices.open($0, clock: clock) }
        let session = try Self.start(settings, opener: self.opener)
        self.session = session
        format = session.format
        capabilities = session.capabilities
        lastSeen = clock.now()
    }

    deinit {
        session?.close()
    }

    private static func start(_ settings: CameraSettings, opener: Opener) throws -> CaptureSession {
        do {
            return try CaptureSession.start(opener(settings.device), settings: settings)
        } catch let error as VideoDeviceError {
            throw error.isNoDevice ? CameraError.disconnected(device: settings.device) : CameraError.failed(error)
        }
    }

    /// Closes the device (if still open) and opens it again with the same settings. Throws what
    /// opening throws, e.g. `CameraError.failed` with ENOENT while the camera is unplugged.
    public func reopen() throws {
        close()
        let session = try Self.start(settings, opener: opener)
        self.session = session
        format = session.format
        capabilities = session.capabilities
        lastSequence = nil
        lastSeen = clock.now()
    }

    /// Stops streaming and closes the device; `nextFrame()` then throws `CameraError.notOpen`.
    public func close() {
        session?.close()
        session = nil
    }

    /// The newest frame, waiting up to `settings.pollTimeout` for one. Never returns nil: a
    /// camera does not end.
    public func nextFrame() throws -> Frame? {
        guard let session else { throw CameraError.notOpen(device: settings.device) }
        do {
            return try capture(session)
        } catch let error as VideoDeviceError {
            guard error.isNoDevice else { throw CameraError.failed(error) }
            close()
            throw CameraError.disconnected(device: settings.device)
        }
    }

    private func capture(_ session: CaptureSession) throws -> Frame {
        let deadline = clock.now() + settings.pollTimeout
        var emptyWakeups = 0
        while true {
            let result: PollResult
            do {
                result = try session.device.poll(timeout: max(deadline - clock.now(), 0))
            } catch let error as VideoDeviceError where error.isInterrupted {
                continue
            }
            if result == .timedOut {
                throw timeout("no frame within \(settings.pollTimeout) s")
            }
            if let frame = try drain(session) { return frame }
            if result == .failed {
                throw CameraError.unusable(device: settings.device, problem: "the stream stopped (poll reports an error and no buffer is ready)")
            }
            emptyWakeups += 1
            if emptyWakeups >= Self.emptyWakeupLimit || clock.now() >= deadline {
                throw timeout("the device said a frame was ready \(emptyWakeups) times but had none")
            }
        }
    }

    private func timeout(_ problem: String) -> FrameError {
        timeouts += 1
        let now = clock.now()
        let t = lastT + max(now - lastSeen, 0)
        lastT = t
        lastSeen = now
        return FrameError(index: deliveredFrames, t: t,
                          problem: "\(settings.device): \(problem) (\(timeouts) timeout\(timeouts == 1 ? "" : "s") so far)")
    }

    /// Dequeues every ready buffer, keeps the newest good one and re-queues the rest; returns
    /// nil when none was ready. Polls before each further dequeue instead of dequeuing until
    /// EAGAIN: libv4l2 prints an error line on standard error for every failed VIDIOC_DQBUF.
    private func drain(_ session: CaptureSession) throws -> Frame? {
        // Gaps count from the first frame delivered after opening.
        let counting = lastSequence != nil
        var taken = 0
        var newest: DequeuedBuffer?
        var rejected: (buffer: DequeuedBuffer, problem: String)?
        repeat {
            let buffer: DequeuedBuffer
            do {
                buffer = try session.device.dequeue()
            } catch let error as VideoDeviceError where error.isInterrupted {
                continue
            } catch let error as VideoDeviceError where error.isWouldBlock {
                break  // poll said ready but nothing was (a driver's spurious wakeup)
            }
            taken += 1
            if counting { countGap(before: buffer.sequence) }
            lastSequence = buffer.sequence
            if let problem = problem(with: buffer, in: session) {
                badFrames += 1
                rejected = (buffer, problem)
                try requeue(buffer.index, session)
                continue
            }
            if let older = newest {
                if counting { drops.add(1) }
                try requeue(older.index, session)
            }
            newest = buffer
        } while try moreReady(session)
        if !counting, taken > 1, let stale = newest {
            // The first read after opening found a backlog: frames from before anyone read (the
            // driver's queue holds the oldest; it dropped the newer ones). Wait for a fresh one.
            try requeue(stale.index, session)
            lastSequence = nil
            return nil
        }
        guard let newest else {
            guard let rejected else { return nil }
            let index = deliveredFrames
            deliveredFrames += 1
            throw FrameError(index: index, t: time(of: rejected.buffer), problem: rejected.problem)
        }
        let frame = makeFrame(newest, session)
        try requeue(newest.index, session)
        return frame
    }

    /// Whether another filled buffer is waiting (poll without waiting).
    private func moreReady(_ session: CaptureSession) throws -> Bool {
        while true {
            do {
                return try session.device.poll(timeout: 0) == .readable
            } catch let error as VideoDeviceError where error.isInterrupted {
                continue
            }
        }
    }

    private func requeue(_ index: Int, _ session: CaptureSession) throws {
        while true {
            do {
                return try session.device.queue(index)
            } catch let error as VideoDeviceError where error.isInterrupted {
                continue
            }
        }
    }

    private func countGap(before sequence: UInt32) {
        if let last = lastSequence, sequence > last &+ 1, sequence > last {
            drops.add(Int(sequence - last - 1))
        }
    }

    private func bytes(of buffer: DequeuedBuffer, in session: CaptureSession) -> UnsafeRawBufferPointer {
        let memory = session.buffers[buffer.index]
        return UnsafeRawBufferPointer(rebasing: memory[0..<min(max(buffer.bytesUsed, 0), memory.count)])
    }

    private func problem(with buffer: DequeuedBuffer, in session: CaptureSession) -> String? {
        if buffer.damaged { return "the driver marked the frame as damaged" }
        let layout = session.format.layout
        if layout.fourcc.isJPEG { return JPEGFrameCheck.problem(bytes(of: buffer, in: session)) }
        let needed = LumaCopy.requiredBytes(layout)
        return buffer.bytesUsed < needed ? "short frame: \(buffer.bytesUsed) of \(needed) bytes" : nil
    }

    /// Seconds since the first frame, from the driver's timestamps; never going backwards
    /// (a reopened device on another clock carries on from the last time).
    private func time(of buffer: DequeuedBuffer) -> Double {
        let base = timeBase ?? buffer.timestamp
        var t = buffer.timestamp - base
        timeBase = base
        if t < lastT {
            timeBase = buffer.timestamp - lastT
            t = lastT
        }
        lastT = t
        lastSeen = clock.now()
        return t
    }

    /// Copies the buffer into the frame's payload, in the next of `frameBuffers` buffers.
    private func makeFrame(_ buffer: DequeuedBuffer, _ session: CaptureSession) -> Frame {
        let bytes = bytes(of: buffer, in: session)
        let payload: Frame.Payload
        let slot = nextBuffer
        nextBuffer = (nextBuffer + 1) % Self.frameBuffers
        if session.format.layout.fourcc.isJPEG {
            // Setting the count keeps the storage; `removeAll(keepingCapacity:)` would not.
            jpegBuffers[slot].count = bytes.count
            jpegBuffers[slot].withUnsafeMutableBytes { $0.copyMemory(from: bytes) }
            payload = .jpeg(jpegBuffers[slot])
        } else {
            LumaCopy.copy(bytes, layout: session.format.layout, into: &grayBuffers[slot])
            payload = .gray(grayBuffers[slot])
        }
        let frame = Frame(index: deliveredFrames, t: time(of: buffer), payload: payload)
        deliveredFrames += 1
        return frame
    }
}

/// The camera's drop count: written by the capture thread, read by others, behind a lock.
private final class DropCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int {
        lock.lock()
        defer { lock.unlock() }
        return count
    }

    func add(_ n: Int) {
        lock.lock()
        count += n
        lock.unlock()
    }
}
