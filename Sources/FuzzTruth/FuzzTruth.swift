import Foundation
import FuzzSupport
import Recordings

/// libFuzzer target: `truth.json` beside a valid one-frame recording.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTruth(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    FuzzInput.write(Data(#"{"format": "facewatch-recording", "version": 1, "width": 8, "height": 8, "fps": 30, "pixel_format": "MJPG", "frame_count": 1, "source": "fuzz", "created": "2026-01-01T00:00:00Z"}"#.utf8), to: "recording.json")
    FuzzInput.write(Data(#"{"index": 0, "t": 0.0, "offset": 0, "length": 16}"#.utf8 + [0x0A]), to: "frames.jsonl")
    FuzzInput.write(Data(repeating: 0xFF, count: 16), to: "frames.mjpeg")
    FuzzInput.write(FuzzInput.data(start, count), to: "truth.json")
    _ = try? Recording(directory: FuzzInput.scratch)
    return 0
}

@main enum FuzzTruthMain {
    static func main() { FuzzInput.main(target: fuzzTruth) }
}
