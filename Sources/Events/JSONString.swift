/// Writes JSON string literals: `"` and `\` escaped, control characters as `\n`, `\r`, `\t`,
/// `\b`, `\f` or `\u00XX`, everything else (UTF-8 included) as is.
public enum JSONString {
    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    public static func append(_ value: String, to out: inout [UInt8]) {
        out.append(0x22)
        for byte in value.utf8 {
            switch byte {
            case 0x22: out.append(contentsOf: [0x5C, 0x22])
            case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
            case 0x0A: out.append(contentsOf: [0x5C, 0x6E])
            case 0x0D: out.append(contentsOf: [0x5C, 0x72])
            case 0x09: out.append(contentsOf: [0x5C, 0x74])
            case 0x08: out.append(contentsOf: [0x5C, 0x62])
            case 0x0C: out.append(contentsOf: [0x5C, 0x66])
            case 0..<0x20:
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }

    /// `value` as a JSON string literal, quotes included.
    public static func literal(_ value: String) -> String {
        var out: [UInt8] = []
        append(value, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
