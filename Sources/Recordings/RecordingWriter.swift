import Foundation

/// Writes a recording folder frame by frame: JPEG bytes appended to `frames.mjpeg`, a line per
/// frame to `frames.jsonl`. `recording.json` is written when recording starts (frame count 0)
/// and replaced atomically with the final count by `finish()`, so whatever stops a recording
/// (a full disk, a signal, a crash) leaves a folder whose frames so far replay.
public final class RecordingWriter {
    public let directory: String
    private var info: RecordingInfo
    private let frames: FileHandle
    private let index: FileHandle
    private var offset = 0
    private var count = 0
    private var lastT = -Double.infinity
    private var finished = false
    /// The `frames.jsonl` line being written, its storage reused frame after frame.
    private var line: [UInt8] = []

    /// Creates the folder (which must not hold a recording already) and its files.
    public init(directory: String, info: RecordingInfo) throws {
        self.directory = directory
        self.info = info
        let folder = URL(fileURLWithPath: directory)
        let manager = FileManager.default
        if manager.fileExists(atPath: folder.appendingPathComponent("frames.jsonl").path) {
            throw RecordingError(path: directory, problem: "already holds a recording")
        }
        do {
            try manager.createDirectory(at: folder, withIntermediateDirectories: true)
            for name in ["frames.mjpeg", "frames.jsonl"] {
                guard manager.createFile(atPath: folder.appendingPathComponent(name).path, contents: nil) else {
                    throw RecordingError(path: folder.appendingPathComponent(name).path, problem: "cannot create")
                }
            }
            frames = try FileHandle(forWritingTo: folder.appendingPathComponent("frames.mjpeg"))
            index = try FileHandle(forWritingTo: folder.appendingPathComponent("frames.jsonl"))
            try Self.writeJSON(info, to: folder.appendingPathComponent("recording.json"))
        } catch let error as RecordingError {
            throw error
        } catch {
            throw RecordingError(path: directory, problem: "cannot create the recording (\(error.localizedDescription))")
        }
    }

    /// Appends one JPEG frame captured at `t` seconds (times must not go backwards).
    public func append(jpeg: Data, t: Double) throws {
        guard t >= lastT, t.isFinite else {
            throw RecordingError(path: directory, problem: "frame time \(t) goes backwards")
        }
        line.removeAll(keepingCapacity: true)
        FrameEntry(index: count, t: t, offset: offset, length: jpeg.count).appendLine(to: &line)
        do {
            try frames.write(contentsOf: jpeg)
            try index.write(contentsOf: line)
        } catch {
            throw RecordingError(path: directory, problem: "cannot write frame \(count) (\(error.localizedDescription))")
        }
        offset += jpeg.count
        count += 1
        lastT = t
    }

    /// Rewrites `recording.json` with the frame count (and writes `truth.json` when given),
    /// each atomically, and closes the files. Later calls do nothing.
    public func finish(truth: Truth? = nil) throws {
        guard !finished else { return }
        finished = true
        info.frameCount = count
        let folder = URL(fileURLWithPath: directory)
        do {
            try frames.close()
            try index.close()
            try Self.writeJSON(info, to: folder.appendingPathComponent("recording.json"))
            if let truth {
                try Self.writeJSON(truth, to: folder.appendingPathComponent("truth.json"))
            }
        } catch {
            throw RecordingError(path: directory, problem: "cannot finish the recording (\(error.localizedDescription))")
        }
    }

    /// Writes to a temporary file beside `url`, then renames it: readers see the old file or the
    /// new one, never a part.
    private static func writeJSON(_ value: some Encodable, to url: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(value).write(to: url, options: .atomic)
    }
}
