/// One line of `frames.jsonl`: a frame's number, capture time and byte range in `frames.mjpeg`.
public struct FrameEntry: Codable, Sendable, Equatable {
    public var index: Int
    /// Seconds since the first frame (the camera's timestamp when recorded live).
    public var t: Double
    public var offset: Int
    public var length: Int

    public init(index: Int, t: Double, offset: Int, length: Int) {
        self.index = index
        self.t = t
        self.offset = offset
        self.length = length
    }
}

extension FrameEntry {
    /// Appends the entry's `frames.jsonl` line, newline included, as UTF-8:
    /// `{"index": 0, "t": 0.033333, "offset": 0, "length": 23817}` (`t` with six decimals,
    /// rounded half away from zero; a negative or non-finite `t` is not written by a recorder).
    /// Appending to a buffer that has room allocates nothing.
    public func appendLine(to line: inout [UInt8]) {
        line.append(contentsOf: #"{"index": "#.utf8)
        Self.appendDecimal(UInt64(max(index, 0)), to: &line)
        line.append(contentsOf: #", "t": "#.utf8)
        let micros = UInt64((max(t, 0) * 1e6).rounded(.toNearestOrAwayFromZero))
        Self.appendDecimal(micros / 1_000_000, to: &line)
        line.append(UInt8(ascii: "."))
        var divisor: UInt64 = 100_000
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(micros / divisor % 10))
            divisor /= 10
        }
        line.append(contentsOf: #", "offset": "#.utf8)
        Self.appendDecimal(UInt64(max(offset, 0)), to: &line)
        line.append(contentsOf: #", "length": "#.utf8)
        Self.appendDecimal(UInt64(max(length, 0)), to: &line)
        line.append(contentsOf: "}\n".utf8)
    }

    private static func appendDecimal(_ value: UInt64, to line: inout [UInt8]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            line.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }
}
