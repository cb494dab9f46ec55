import Foundation

/// A recording folder opened for reading (shared/spec/recording-format.md): its metadata, the
/// index of its frames, the memory-mapped `frames.mjpeg`, and `truth.json` when present.
///
/// Opening checks everything that would make the whole recording meaningless (missing files,
/// a malformed `recording.json`, a bad `frames.jsonl` line, non-consecutive indices, time going
/// backwards) and throws `RecordingError` naming the file and line. Problems that leave the
/// rest playable are collected in `problems` instead: a last line cut off mid-write, fewer frames
/// than `frame_count` says, frames whose bytes lie past the end of a truncated `frames.mjpeg`
/// (those frames throw `FrameError` when read).
public struct Recording: Sendable {
    public let directory: String
    public let info: RecordingInfo
    public let frames: [FrameEntry]
    public let truth: Truth?
    /// Non-fatal problems found when opening, for the replay to report.
    public let problems: [String]
    private let data: Data

    /// The slowest a recording plays on its own clock (`PacedSource`, `LoopbackFeeder`): a
    /// hundredth of its rate. Slower, a frame's wait (its time over the speed) leaves the range
    /// of the clocks' arithmetic and pacing stops.
    public static let slowestSpeed = 0.01

    public init(directory: String) throws {
        func path(_ name: String) -> String { Self.file(name, in: directory) }

        let infoPath = path("recording.json")
        guard let infoData = Self.contents(atPath: infoPath) else {
            throw RecordingError(path: infoPath, problem: "missing: not a recording folder")
        }
        let info = try Self.info(infoData, path: infoPath)

        let mjpegPath = path("frames.mjpeg")
        let mjpeg: Data
        do {
            mjpeg = try Data(contentsOf: URL(fileURLWithPath: mjpegPath), options: .alwaysMapped)
        } catch {
            throw RecordingError(path: mjpegPath, problem: "missing or unreadable")
        }

        let indexPath = path("frames.jsonl")
        guard let indexData = Self.contents(atPath: indexPath) else {
            throw RecordingError(path: indexPath, problem: "missing or unreadable")
        }
        try self.init(directory: directory, info: info, index: indexData, frames: mjpeg,
                      truth: Self.contents(atPath: path("truth.json")))
    }

    /// A recording from the bytes of its files (`truth` nil: no `truth.json`), checked as
    /// `init(directory:)` checks a folder; `directory` names the files in errors.
    public init(directory: String, recordingJSON: Data, index: Data, frames: Data, truth: Data?) throws {
        try self.init(directory: directory, info: Self.info(recordingJSON, path: Self.file("recording.json", in: directory)), index: index, frames: frames,
                      truth: truth)
    }

    /// The path of file `name` of the recording folder `directory`, as errors name it.
    private static func file(_ name: String, in directory: String) -> String {
        URL(fileURLWithPath: directory).appendingPathComponent(name).path
    }

    /// `recording.json`, decoded and checked.
    private static func info(_ infoData: Data, path infoPath: String) throws -> RecordingInfo {
        let info: RecordingInfo
        do {
            info = try JSONDecoder().decode(RecordingInfo.self, from: infoData)
        } catch {
            throw RecordingError(path: infoPath, problem: "not a valid recording.json (\(Self.describe(error)))")
        }
        guard info.format == "facewatch-recording" else {
            throw RecordingError(path: infoPath, problem: "format is \"\(info.format)\", expected \"facewatch-recording\"")
        }
        guard info.version == 1 else { throw RecordingError(path: infoPath, problem: "unsupported version \(info.version)") }
        guard info.width > 0, info.height > 0, info.fps > 0, info.frameCount >= 0 else {
            throw RecordingError(path: infoPath, problem: "width, height and fps must be positive")
        }
        // JPEG frames are at most 65535 pixels a side; cameras do not exceed 1000 fps. Bounding
        // them here keeps every size computed from them (buffers, frame periods) in range.
        guard info.width <= Self.maximumSide, info.height <= Self.maximumSide, info.fps <= Self.maximumFPS else {
            throw RecordingError(path: infoPath, problem: "width and height must be at most \(Self.maximumSide) and fps at most \(Int(Self.maximumFPS))")
        }
        return info
    }

    private init(directory: String, info: RecordingInfo, index indexData: Data, frames mjpeg: Data, truth truthData: Data?) throws {
        self.directory = directory
        self.info = info
        data = mjpeg
        func path(_ name: String) -> String { Self.file(name, in: directory) }
        let infoPath = path("recording.json"), mjpegPath = path("frames.mjpeg"), indexPath = path("frames.jsonl")
        var problems: [String] = []
        var entries: [FrameEntry] = []
        let lines = indexData.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        let decoder = JSONDecoder()
        for (number, line) in lines.enumerated() where !line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) {
            let entry: FrameEntry
            do {
                entry = try decoder.decode(FrameEntry.self, from: Data(line))
            } catch {
                // A cut-off last line is what a recorder killed mid-write leaves: play the rest.
                if number == lines.count - 1 && indexData.last != UInt8(ascii: "\n") {
                    problems.append("\(indexPath):\(number + 1): last line is incomplete (recording cut off); ignored")
                    break
                }
                throw RecordingError(path: indexPath, line: number + 1, problem: "not a frame line (\(Self.describe(error)))")
            }
            guard entry.index == entries.count else {
                throw RecordingError(path: indexPath, line: number + 1,
                                     problem: "frame index \(entry.index), expected \(entries.count)")
            }
            guard entry.t.isFinite, entry.t >= (entries.last?.t ?? -.infinity) else {
                throw RecordingError(path: indexPath, line: number + 1, problem: "time \(entry.t) goes backwards")
            }
            guard entry.offset >= 0, entry.length > 0 else {
                throw RecordingError(path: indexPath, line: number + 1, problem: "negative offset or empty frame")
            }
            guard !entry.offset.addingReportingOverflow(entry.length).overflow else {
                throw RecordingError(path: indexPath, line: number + 1, problem: "offset + length \(entry.offset) + \(entry.length) overflows")
            }
            entries.append(entry)
        }
        if entries.count != info.frameCount {
            problems.append("\(infoPath): frame_count is \(info.frameCount) but frames.jsonl lists \(entries.count) frames")
        }
        let size = data.count
        let missing = entries.filter { $0.offset + $0.length > size }.count
        if missing > 0 {
            problems.append("\(mjpegPath): truncated: \(missing) frame(s) lie past its end (\(size) bytes)")
        }
        frames = entries
        self.problems = problems

        let truthPath = path("truth.json")
        if let truthData {
            do {
                truth = try JSONDecoder().decode(Truth.self, from: truthData)
            } catch {
                throw RecordingError(path: truthPath, problem: "not a valid truth.json (\(Self.describe(error)))")
            }
            for (number, event) in (truth?.events ?? []).enumerated()
            where !(event.start.isFinite && event.end.isFinite && event.end >= event.start) {
                throw RecordingError(path: truthPath, problem: "event \(number) (\(event.type)): end \(event.end) is before start \(event.start)")
            }
        } else {
            truth = nil
        }
    }

    /// The JPEG bytes of frame `number` (a slice of the mapped file, no copy).
    public func jpeg(_ number: Int) throws -> Data {
        let entry = frames[number]
        guard entry.offset + entry.length <= data.count else {
            throw FrameError(index: entry.index, t: entry.t, problem: "bytes \(entry.offset)..<\(entry.offset + entry.length) lie past the end of frames.mjpeg (truncated)")
        }
        return data[data.startIndex + entry.offset ..< data.startIndex + entry.offset + entry.length]
    }

    /// The largest width or height accepted (JPEG's limit).
    public static let maximumSide = 65535
    /// The highest frame rate accepted.
    public static let maximumFPS = 1000.0

    /// The recording's duration: the last frame's time.
    public var duration: Double { frames.last?.t ?? 0 }

    /// A file's bytes (nil when it cannot be read). An empty file is read without Foundation's
    /// `contents(atPath:)`, which leaks a 4 KiB buffer for it (found by the recording fuzz target).
    private static func contents(atPath path: String) -> Data? {
        var info = stat()
        if stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG && info.st_size == 0 { return Data() }
        return FileManager.default.contents(atPath: path)
    }

    private static func describe(_ error: Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _): return "missing \"\(key.stringValue)\""
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            return "bad value for \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\""
        case DecodingError.dataCorrupted: return "not JSON"
        default: return "\(error)"
        }
    }
}
