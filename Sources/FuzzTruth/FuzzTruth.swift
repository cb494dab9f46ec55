import Foundation
import FuzzSupport
import Recordings

private let recordingJSON = Data(#"{"format": "facewatch-recording", "version": 1, "width": 8, "height": 8, "fps": 30, "pixel_format": "MJPG", "frame_count": 1, "source": "fuzz", "created": "2026-01-01T00:00:00Z"}"#.utf8)
private let index = Data(#"{"index": 0, "t": 0.0, "offset": 0, "length": 16}"#.utf8 + [0x0A])
private let frames = Data(repeating: 0xFF, count: 16)

/// libFuzzer target: `truth.json` beside a valid one-frame recording, read in memory by the
/// parser `Recording(directory:)` uses.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTruth(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    _ = try? Recording(directory: "fuzz", recordingJSON: recordingJSON, index: index, frames: frames,
                       truth: FuzzInput.data(start, count))
    return 0
}

@main enum FuzzTruthMain {
    static func main() { FuzzInput.main(target: fuzzTruth) }
}
