/// A V4L2 pixel format code: four ASCII characters packed little-endian (`v4l2_fourcc`).
public struct FourCC: Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt32

    public init(rawValue: UInt32) {
        self.rawValue = rawValue
    }

    /// The code for four ASCII characters, e.g. `FourCC("MJPG")`; nil unless `text` is exactly four ASCII characters.
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard bytes.count == 4, bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        rawValue = bytes.enumerated().reduce(0) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
    }

    private init(_ a: Unicode.Scalar, _ b: Unicode.Scalar, _ c: Unicode.Scalar, _ d: Unicode.Scalar) {
        rawValue = UInt32(UInt8(ascii: a)) | UInt32(UInt8(ascii: b)) << 8 | UInt32(UInt8(ascii: c)) << 16
            | UInt32(UInt8(ascii: d)) << 24
    }

    /// The format named in `camera.format` and on the command line: `mjpg`, `yuyv` or `grey`
    /// (any case); nil for any other name (`auto` among them).
    public init?(formatName: String) {
        switch formatName.lowercased() {
        case "mjpg": self = .mjpeg
        case "yuyv": self = .yuyv
        case "grey": self = .grey
        default: return nil
        }
    }

    /// Motion-JPEG: every frame a JPEG (what most USB webcams send at 640×480 and above).
    public static let mjpeg = FourCC("M", "J", "P", "G")
    /// JFIF JPEG: the same payload as MJPG under another name (some drivers use it).
    public static let jpeg = FourCC("J", "P", "E", "G")
    /// YUYV 4:2:2: Y0 U Y1 V per two pixels.
    public static let yuyv = FourCC("Y", "U", "Y", "V")
    /// 8-bit gray (infrared and monochrome cameras).
    public static let grey = FourCC("G", "R", "E", "Y")

    /// True for the formats whose frames are JPEGs.
    public var isJPEG: Bool { self == .mjpeg || self == .jpeg }

    public var description: String {
        String(decoding: (0..<4).map { i -> UInt8 in
            let byte = UInt8(truncatingIfNeeded: rawValue >> (8 * UInt32(i)))
            return (0x20..<0x7F).contains(byte) ? byte : UInt8(ascii: "?")
        }, as: UTF8.self)
    }
}
