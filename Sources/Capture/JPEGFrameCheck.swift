/// A cheap check that a camera's JPEG frame is whole before it is decoded or recorded.
enum JPEGFrameCheck {
    /// Frames shorter than this are fragments, not pictures.
    static let minimumBytes = 100
    /// How far from the end the EOI marker may be (drivers pad frames after it).
    static let endSearch = 1024

    /// Why the frame is unusable, or nil when it starts with SOI (FFD8) and has an EOI (FFD9)
    /// near its end. Entropy-coded data never holds FFD9, so its presence means the frame ended.
    static func problem(_ bytes: UnsafeRawBufferPointer) -> String? {
        let count = bytes.count
        guard count >= minimumBytes else { return "short frame: only \(count) bytes" }
        guard bytes[0] == 0xFF, bytes[1] == 0xD8 else { return "not a JPEG frame (no FFD8 start marker)" }
        var position = count - 1
        while position >= max(count - endSearch, 3) {
            if bytes[position] == 0xD9 && bytes[position - 1] == 0xFF { return nil }
            position -= 1
        }
        return "truncated frame: no FFD9 end marker in its last bytes (\(count) bytes)"
    }
}
