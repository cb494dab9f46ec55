import Foundation
import FuzzSupport
import Recordings

private let recordingJSON = Array(#"{"format": "facewatch-recording", "version": 1, "width": 8, "height": 8, "fps": 30, "pixel_format": "MJPG", "frame_count": 1, "source": "fuzz", "created": "2026-01-01T00:00:00Z"}"#.utf8)
private let index = Array(#"{"index": 0, "t": 0.0, "offset": 0, "length": 16}"#.utf8 + [0x0A])
private let frames = [UInt8](repeating: 0xFF, count: 16)

/// libFuzzer target: `truth.json` beside a valid one-frame recording, read in memory by the
/// parser `Recording(directory:)` uses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTruth(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    // `Data` made per input from arrays: a global `Data` is reported as a leak by LeakSanitizer
    // (Swift packs an enum tag into the reference, so the scan does not recognise it as a pointer).
    _ = try? Recording(directory: "fuzz", recordingJSON: Data(recordingJSON), index: Data(index), frames: Data(frames),
                       truth: FuzzInput.data(start, count))
    return 0
}

@main enum FuzzTruthMain {
    static func main() { FuzzInput.main(target: fuzzTruth) }
}
