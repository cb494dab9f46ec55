import Foundation
import Imaging
import Recordings

/// Plays a recording into a V4L2 output device (v4l2loopback) on the recording's clock, so that
/// any program reading the matching capture node sees the recorded frames as a live camera.
/// MJPG frames are written as recorded; YUYV and GREY frames are the decoded luma (YUYV with
/// neutral chroma), exactly what `replay` processes.
public final class LoopbackFeeder {
    public enum FeederError: Error, CustomStringConvertible {
        case unsupportedFormat(String)
        case refused(device: String, asked: String, granted: PixelLayout)
        case badFrame(index: Int, problem: String)

        public var description: String {
            switch self {
            case .unsupportedFormat(let format): return "cannot write \(format) frames: choose MJPG, YUYV or GREY"
            case .refused(let device, let asked, let granted):
                return "\(device) granted \(granted.fourcc) \(granted.width)x\(granted.height) instead of \(asked) (is another writer using it with another format?)"
            case .badFrame(let index, let problem): return "frame \(index) of the recording: \(problem)"
            }
        }
    }

    public let recording: Recording
    public let format: FourCC
    private let output: any VideoOutput
    private let clock: any CaptureClock
    private var decoder = JPEGDecoder()
    private var gray = GrayImage(width: 0, height: 0)
    private var raw: UnsafeMutableRawBufferPointer

    /// Opens `device` and sets its format to `format` (MJPG, YUYV or GREY) at the recording's size.
    public convenience init(recording: Recording, device: String, format: FourCC, clock: any CaptureClock = SystemClock()) throws {
        try Self.requireWritable(format)
        let info = recording.info
        let largest = recording.frames.map(\.length).max() ?? 0
        let output = try V4L2Output(path: device, format: format, width: info.width, height: info.height, frameBytes: largest)
        try self.init(recording: recording, output: output, name: device, format: format, clock: clock)
    }

    /// Feeds `output`, which must have granted `format` at the recording's size (`name` names it in errors).
    public init(recording: Recording, output: any VideoOutput, name: String, format: FourCC,
                clock: any CaptureClock = SystemClock()) throws {
        try Self.requireWritable(format)
        let info = recording.info
        let granted = output.layout
        guard granted.fourcc == format, granted.width == info.width, granted.height == info.height else {
            output.close()
            throw FeederError.refused(device: name, asked: "\(format) \(info.width)x\(info.height)", granted: granted)
        }
        self.output = output
        self.recording = recording
        self.format = format
        self.clock = clock
        raw = .allocate(byteCount: format.isJPEG ? 0 : LumaCopy.requiredBytes(granted), alignment: 64)
    }

    private static func requireWritable(_ format: FourCC) throws {
        guard [.mjpeg, .yuyv, .grey].contains(format) else { throw FeederError.unsupportedFormat(format.description) }
    }

    deinit {
        raw.deallocate()
        output.close()
    }

    /// Writes recording frame `number` (converted to the format), stamped `timestamp` (seconds on
    /// the clock; nil: the time it is written).
    public func write(frame number: Int, timestamp: Double? = nil) throws {
        let jpeg = try recording.jpeg(number)
        if format.isJPEG {
            try jpeg.withUnsafeBytes { try output.write($0, timestamp: timestamp) }
            return
        }
        do {
            try decoder.decode(jpeg, into: &gray, conversion: .luma)
        } catch {
            throw FeederError.badFrame(index: number, problem: "\(error)")
        }
        guard gray.width == output.layout.width, gray.height == output.layout.height else {
            throw FeederError.badFrame(index: number, problem: "\(gray.width)x\(gray.height), not the recording's size")
        }
        LumaCopy.write(gray, layout: output.layout, into: raw)
        try output.write(UnsafeRawBufferPointer(raw), timestamp: timestamp)
    }

    /// Shows the first frame (repeated at the recording's rate) for up to `leadIn` seconds or
    /// until `start()` says so, giving a reader time to start; then plays every frame, `loops`
    /// times (nil: for ever), at `speed` times the recording's rate. Every played frame is stamped
    /// with its time in the recording (from when playing started), whatever the speed: a reader
    /// that times frames by their timestamps (as Facewatch does) sees the recording's clock, so a
    /// slow reader can be fed at a rate it keeps up with. Returns the frames written.
    @discardableResult
    public func play(loops: Int?, leadIn: Double = 0, speed: Double = 1, start: () -> Bool = { false }) throws -> Int {
        precondition(speed >= Recording.slowestSpeed && speed.isFinite, "speed must be finite and at least Recording.slowestSpeed")
        let frames = recording.frames
        guard let first = frames.first else { return 0 }
        let period = 1 / max(recording.info.fps, 1)
        var written = 0
        let holdUntil = clock.now() + leadIn
        while clock.now() < holdUntil && !start() {
            try write(frame: 0)
            written += 1
            clock.sleep(min(period / speed, holdUntil - clock.now()))
        }
        let cycle = (frames.last?.t ?? first.t) - first.t + period
        let origin = clock.now()
        var pass = 0
        while loops.map({ pass < $0 }) ?? true {
            for (number, entry) in frames.enumerated() {
                let offset = Double(pass) * cycle + entry.t - first.t
                clock.sleep(origin + offset / speed - clock.now())
                try write(frame: number, timestamp: origin + offset)
                written += 1
            }
            pass += 1
        }
        return written
    }
}
