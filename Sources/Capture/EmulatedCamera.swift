import Foundation
import Recordings

/// A camera made from a recording: the "scene" plays on the camera's clock from the moment a
/// node first starts streaming (frame `k` appears at the recording's time for it, divided by
/// `speed`, looping if asked), and goes on whether or not anyone is streaming, like a real sensor. Each `open()` gives an
/// `EmulatedDevice` node with V4L2's buffer-queue rules, which captures the frames that appear
/// while it streams. Faults (`EmulatedFault`) are injected at the device level.
///
/// Used by the capture tests with a virtual clock, and by `--device emulated:RECORDING` in real time.
public final class EmulatedCamera {
    /// How the emulated camera presents itself.
    public struct Options: Sendable {
        /// Pixel formats offered, in enumeration order. JPEG formats send the recording's frames
        /// as they are; YUYV and GREY send their luma.
        public var formats: [FourCC]
        /// What VIDIOC_QUERYCAP reports.
        public var capabilities: UInt32
        /// Playback speed: 2 plays the recording twice as fast.
        public var speed: Double
        /// Start again after the last frame (otherwise no frames come after it).
        public var loop: Bool
        /// Extra bytes at the end of every YUYV or GREY row (drivers pad rows to an alignment).
        public var rowPadding: Int
        public var faults: [EmulatedFault]
        /// The card name VIDIOC_QUERYCAP reports.
        public var card: String

        public init(formats: [FourCC] = [.mjpeg], capabilities: UInt32 = DeviceCapabilities.videoCapture | DeviceCapabilities.streaming,
                    speed: Double = 1, loop: Bool = true, rowPadding: Int = 0, faults: [EmulatedFault] = [],
                    card: String = "Facewatch emulated camera") {
            self.formats = formats
            self.capabilities = capabilities
            self.speed = speed
            self.loop = loop
            self.rowPadding = rowPadding
            self.faults = faults
            self.card = card
        }
    }

    public let recording: Recording
    public let options: Options
    /// The name device nodes report: `emulated:` and the recording's folder.
    public let name: String
    let clock: any CaptureClock
    /// When the scene started (the first STREAMON): the time of the recording's first frame.
    private var origin: Double?
    /// Faults actually delivered (EAGAIN and EINTR returns, truncated frames).
    public private(set) var faultsInjected = 0
    /// VIDIOC_DQBUF calls that found no filled buffer (EAGAIN, injected faults aside). Through
    /// libv4l2 a real device prints "libv4l2: error dequeuing buf" on standard error for each.
    public internal(set) var emptyDequeues = 0
    private var pendingAgain: Int
    private var pendingInterrupts: Int
    private let period: Double

    public init(recording: Recording, options: Options = Options(), clock: any CaptureClock) {
        self.recording = recording
        self.options = options
        self.clock = clock
        name = "emulated:\(recording.directory)"
        period = 1 / recording.info.fps
        pendingAgain = options.faults.reduce(0) { if case .spuriousAgain(let n) = $1 { return $0 + n } else { return $0 } }
        pendingInterrupts = options.faults.reduce(0) { if case .interrupted(let n) = $1 { return $0 + n } else { return $0 } }
    }

    /// Opens a node on the camera; fails with ENOENT while it is unplugged.
    public func open() throws -> EmulatedDevice {
        let now = clock.now()
        guard !isUnplugged(at: now) else { throw VideoDeviceError(device: name, call: "open", code: ENOENT) }
        return EmulatedDevice(camera: self, openedAt: now)
    }

    // MARK: The scene's schedule

    private var cycle: Double { recording.duration - (recording.frames.first?.t ?? 0) + period }

    /// Starts the scene at `time` unless it is playing already.
    func startScene(at time: Double) {
        if origin == nil { origin = time }
    }

    /// When frame `k` appears (infinity when there is none).
    func arrival(_ k: Int) -> Double {
        let count = recording.frames.count
        guard let start = origin, count > 0, options.loop || k < count else { return .infinity }
        let entry = recording.frames[k % count]
        let offset = Double(k / count) * cycle + entry.t - recording.frames[0].t
        return start + offset / options.speed
    }

    /// The first frame that appears at or after `time`.
    func firstFrame(atOrAfter time: Double) -> Int {
        let count = recording.frames.count
        guard let start = origin, count > 0 else { return 0 }
        let elapsed = max(time - start, 0) * options.speed
        let loops = options.loop ? Int((elapsed / cycle).rounded(.down)) : 0
        var k = loops * count
        while arrival(k) < time { k += 1 }
        return k
    }

    /// The recording frame shown as frame `k`.
    func recordingFrame(_ k: Int) -> Int { k % max(recording.frames.count, 1) }

    /// How many bytes of frame `k` to deliver, when a `truncated` fault cuts it.
    func truncation(of k: Int) -> Int? {
        for case .truncated(let frame, let keep) in options.faults where frame == k {
            faultsInjected += 1
            return keep
        }
        return nil
    }

    func isStalled(at time: Double) -> Bool {
        guard let start = origin else { return false }
        return options.faults.contains {
            if case .stall(let at, let seconds) = $0 { return time >= start + at && time < start + at + seconds }
            return false
        }
    }

    func isUnplugged(at time: Double) -> Bool {
        guard let start = origin else { return false }
        return options.faults.contains {
            if case .unplug(let at, let back) = $0 { return time >= start + at && time < start + at + (back ?? .infinity) }
            return false
        }
    }

    /// When a node opened at `time` dies: the first unplug at or after it.
    func firstUnplug(after time: Double) -> Double {
        guard let start = origin else { return .infinity }
        return options.faults.reduce(.infinity) {
            if case .unplug(let at, _) = $1, start + at >= time { return min($0, start + at) }
            return $0
        }
    }

    /// Consumes one pending EINTR, if any.
    func takeInterrupt() -> Bool {
        guard pendingInterrupts > 0 else { return false }
        pendingInterrupts -= 1
        faultsInjected += 1
        return true
    }

    /// Consumes one pending spurious EAGAIN, if any.
    func takeSpuriousAgain() -> Bool {
        guard pendingAgain > 0 else { return false }
        pendingAgain -= 1
        faultsInjected += 1
        return true
    }
}
