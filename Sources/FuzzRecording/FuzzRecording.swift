import Foundation
import FuzzSupport
import Recordings

/// libFuzzer target: a recording folder's `recording.json` and `frames.jsonl` (reliability
/// findings D1, D6), read in memory by the parser `Recording(directory:)` uses. The input is the
/// two files separated by a NUL byte; `frames.mjpeg` holds 4 KiB. Every frame of a recording that
/// opens is read, twice over, as `replay --loop 2` does.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRecording(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    let parts = data.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
    // `frames.mjpeg` is built per input: a global `Data` is reported as a leak by LeakSanitizer (Swift packs an enum
    // tag into the reference, so the scan does not recognise it as a pointer).
    guard let recording = try? Recording(directory: "fuzz", recordingJSON: Data(parts[0]),
                                         index: parts.count > 1 ? Data(parts[1]) : Data(),
                                         frames: Data(repeating: 0xFF, count: 4096), truth: nil)
    else { return 0 }
    var source = RecordingSource(recording: recording, loops: 2)
    while true {
        do {
            guard try source.nextFrame() != nil else { break }
        } catch {
            continue  // one unreadable frame; the next may be fine
        }
    }
    return 0
}

@main enum FuzzRecordingMain {
    static func main() { FuzzInput.main(target: fuzzRecording) }
}
