/// Bytes in dlib's `serialize()` format, for the model files the tests build.
enum DlibBytes {
    /// dlib's packed integer: a control byte (size, sign bit) and little-endian magnitude bytes.
    static func packed(_ value: Int) -> [UInt8] {
        var magnitude = value.magnitude, bytes: [UInt8] = []
        repeat {
            bytes.append(UInt8(magnitude & 0xFF))
            magnitude >>= 8
        } while magnitude > 0
        return [UInt8(bytes.count) | (value < 0 ? 0x80 : 0)] + bytes
    }
}
