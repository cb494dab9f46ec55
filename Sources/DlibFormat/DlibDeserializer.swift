import CCPUFeatures
import CDlibFormatKernels

/// Reads the primitives of dlib's `serialize()` format from a byte buffer: packed integers
/// (a control byte, then up to 8 little-endian magnitude bytes) and floats stored as
/// (int64 mantissa, int16 exponent) pairs. See `shared/spec/reference-facts.md` §1.2.
///
/// Model files are untrusted: every count a reader takes from a header must be checked against
/// the bytes that remain before anything is allocated for it (`readCount(max:bytesEach:what:)`,
/// `requireRoom(for:bytesEach:what:)`), so a short file can never ask for gigabytes.
public struct DlibDeserializer {
    /// The fewest bytes a packed integer takes (a control byte and one magnitude byte).
    public static let minimumIntegerBytes = 2
    /// The fewest bytes a float takes (two packed integers).
    public static let minimumFloatBytes = 2 * minimumIntegerBytes

    /// Why a read failed, before a path is attached to it.
    public enum Failure: Error, Equatable {
        case truncated(Int)
        case malformed(String)
    }

    private let bytes: UnsafeRawBufferPointer
    public private(set) var offset = 0

    public init(_ bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
    }

    /// A reader that starts at `offset` (within `bytes` or at its end).
    public init(_ bytes: UnsafeRawBufferPointer, offset: Int) {
        self.bytes = bytes
        self.offset = min(max(offset, 0), bytes.count)
    }

    public var isAtEnd: Bool { offset >= bytes.count }

    /// Bytes not read yet.
    public var remaining: Int { max(0, bytes.count - offset) }

    /// Checks that the product of `counts` elements of at least `bytesEach` bytes each can still
    /// be in the file: throws `truncated` when they cannot (`malformed` on overflow), before the
    /// caller allocates for them.
    public func requireRoom(for counts: [Int], bytesEach: Int, what: String) throws {
        var total = bytesEach
        for count in counts {
            let (product, overflow) = total.multipliedReportingOverflow(by: count)
            guard !overflow, count >= 0 else { throw Failure.malformed("\(what) count overflows") }
            total = product
        }
        // The file ends before what its header declares could: it is cut short (or lies).
        guard total <= remaining else { throw Failure.truncated(bytes.count) }
    }

    /// A packed integer: returns the magnitude and whether the sign bit was set.
    @inline(__always)
    private mutating func readPacked() throws -> (magnitude: UInt64, negative: Bool) {
        guard offset < bytes.count else { throw Failure.truncated(offset) }
        let control = bytes[offset]
        if control & 0x70 != 0 {
            throw Failure.malformed("unexpected byte 0x\(String(control, radix: 16)) at offset \(offset) where a number should start")
        }
        let size = Int(control & 0x0F)
        guard size >= 1, size <= 8 else {
            throw Failure.malformed("bad integer size \(size) at offset \(offset)")
        }
        guard offset + 1 + size <= bytes.count else { throw Failure.truncated(bytes.count) }
        var value: UInt64 = 0
        for i in stride(from: size, through: 1, by: -1) {
            value = (value << 8) | UInt64(bytes[offset + i])
        }
        offset += 1 + size
        return (value, control & 0x80 != 0)
    }

    /// An `unsigned long`: a sign bit is an error, as in dlib.
    public mutating func readUnsigned() throws -> UInt64 {
        let start = offset
        let (magnitude, negative) = try readPacked()
        if negative { throw Failure.malformed("negative value for an unsigned integer at offset \(start)") }
        return magnitude
    }

    /// A signed `int`/`long`/`int64`.
    public mutating func readSigned() throws -> Int64 {
        let start = offset
        let (magnitude, negative) = try readPacked()
        guard magnitude <= UInt64(Int64.max) else { throw Failure.malformed("integer overflow at offset \(start)") }
        return negative ? -Int64(magnitude) : Int64(magnitude)
    }

    /// A `float` in dlib's portable format.
    public mutating func readFloat() throws -> Float {
        Float(try readDouble())
    }

    /// A `bool`: dlib writes the ASCII digit '0' or '1'.
    public mutating func readBool() throws -> Bool {
        guard offset < bytes.count else { throw Failure.truncated(offset) }
        let byte = bytes[offset]
        guard byte == UInt8(ascii: "0") || byte == UInt8(ascii: "1") else {
            throw Failure.malformed("byte 0x\(String(byte, radix: 16)) at offset \(offset) is not a bool")
        }
        offset += 1
        return byte == UInt8(ascii: "1")
    }

    /// A `std::string`: a packed length, then that many bytes (checked against what remains
    /// and against `limit` before anything is allocated).
    public mutating func readString(max limit: Int = 4096) throws -> String {
        let start = offset
        let length = try readUnsigned()
        guard length <= UInt64(limit) else { throw Failure.malformed("string of \(length) bytes at offset \(start) exceeds \(limit)") }
        let count = Int(length)
        guard count <= bytes.count - offset else { throw Failure.truncated(bytes.count) }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        offset += count
        return text
    }

    /// A dlib `resizable_tensor` (version 2): four packed dimensions (samples, k, rows,
    /// columns), then that many little-endian IEEE floats. The dimensions are checked for
    /// overflow and against the bytes that remain before the values are read.
    public mutating func readTensor() throws -> DlibTensor {
        let start = offset
        let version = try readSigned()
        guard version == 2 else { throw Failure.malformed("tensor version \(version) at offset \(start), expected 2") }
        var shape: [Int] = []
        var count = 1
        for _ in 0..<4 {
            let dimension = try readSigned()
            guard dimension >= 0, dimension <= Int64(Int32.max) else {
                throw Failure.malformed("tensor dimension \(dimension) at offset \(start)")
            }
            let (product, overflow) = count.multipliedReportingOverflow(by: Int(dimension))
            guard !overflow else { throw Failure.malformed("tensor size overflows at offset \(start)") }
            shape.append(Int(dimension))
            count = product
        }
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: 4)
        guard !overflow, byteCount <= bytes.count - offset else {
            throw Failure.malformed("tensor of \(shape) at offset \(start) needs more bytes than the \(bytes.count - offset) left")
        }
        var values = [Float](repeating: 0, count: count)
        values.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + byteCount])) }
        #if _endian(big)
        for i in values.indices { values[i] = Float(bitPattern: UInt32(littleEndian: values[i].bitPattern)) }
        #endif
        offset += byteCount
        return DlibTensor(samples: shape[0], channels: shape[1], rows: shape[2], columns: shape[3], values: values)
    }

    /// A `std::vector`'s element count, checked against a sane upper bound and against the bytes
    /// that remain: each element takes at least `bytesEach` bytes (1 when not given: no element
    /// is smaller, so a count can never exceed the bytes left).
    public mutating func readCount(max limit: Int, bytesEach: Int = 1, what: String) throws -> Int {
        let count = try readUnsigned()
        guard count <= UInt64(limit) else { throw Failure.malformed("\(what) count \(count) exceeds \(limit)") }
        try requireRoom(for: [Int(count)], bytesEach: bytesEach, what: what)
        return Int(count)
    }

    /// A `matrix<float,0,1>` header: returns its element count (rows × columns).
    public mutating func readColumnVectorSize(max limit: Int) throws -> Int {
        let rows = try readSigned(), columns = try readSigned()
        // dlib writes negated dimensions in its current format and positive ones in the old one.
        let nr = rows.magnitude, nc = columns.magnitude
        guard nc == 1 || nr == 0 else { throw Failure.malformed("expected a column vector, found \(nr)×\(nc)") }
        guard nr <= UInt64(limit) else { throw Failure.malformed("vector of \(nr) values exceeds \(limit)") }
        try requireRoom(for: [Int(nr)], bytesEach: Self.minimumFloatBytes, what: "vector")
        return Int(nr)
    }
}

extension DlibDeserializer {
    /// A `double` in dlib's portable format (mantissa × 2^exponent, read exactly).
    public mutating func readDouble() throws -> Double {
        let start = offset
        let mantissa = try readSigned()
        let exponent = try readSigned()
        switch exponent {
        case 32000: return .infinity
        case 32001: return -.infinity
        case 32002: return .nan
        default:
            guard (-32768...32767).contains(exponent) else {
                throw Failure.malformed("exponent \(exponent) out of range at offset \(start)")
            }
            return Double(sign: mantissa < 0 ? .minus : .plus, exponent: Int(exponent), significand: Double(mantissa.magnitude))
        }
    }

    /// Reads up to `count` floats into `destination` for as long as they take dlib's usual form
    /// (a mantissa below 2^63, an exponent of at most two bytes scaling it within the normal
    /// doubles, a finite float as the result) and returns how many it read. Each value is
    /// computed exactly as `readFloat()` computes it (the same double, then the same rounding to
    /// float), without the per-byte checks: this reads the 16 million leaf values of the
    /// 68-point model. It stops before a float in any other form, or a malformed or cut-off one,
    /// which the caller then reads with `readFloat()` for the same value or error.
    public mutating func readUsualFloats(into destination: UnsafeMutablePointer<Float>, count: Int) -> Int {
        readUsualFloats(into: destination, count: count, avx2: Self.avx2)
    }

    /// Whether the AVX2 kernel (`dlib_read_six_byte_floats_avx2`) may run on this CPU.
    static let avx2 = cpu_has_avx2()

    /// `readUsualFloats` with the six-byte form read four values at a time by the AVX2 kernel or
    /// not (tests compare both): the kernel computes each value in the same two exact steps, so
    /// both give the same floats, and hands back to the loop below at any other form.
    mutating func readUsualFloats(into destination: UnsafeMutablePointer<Float>, count: Int, avx2: Bool) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        // A usual float takes at most 1 + 8 + 1 + 2 bytes, and both magnitudes are loaded as
        // 8 bytes: read only where 18 bytes remain.
        let last = bytes.count - 18
        var position = offset
        var done = 0
        while done < count && position <= last {
            if avx2 {
                let read = dlib_read_six_byte_floats_avx2(base.assumingMemoryBound(to: UInt8.self) + position,
                                                          bytes.count - position, destination + done, count - done)
                done += read
                position += 6 * read
                guard done < count && position <= last else { break }
            }
            let p = base + position
            // The commonest form by far (99.5 % of the 68-point model's leaves): a 3-byte mantissa
            // and a 1-byte exponent, six bytes in all. Its fixed length lets the next value's
            // reading start before this one's bytes are decoded.
            let word = UInt64(littleEndian: p.loadUnaligned(as: UInt64.self))
            if word & 0x7F == 0x03 && (word >> 32) & 0x7F == 0x01 {
                let exponentMagnitude = Int((word >> 40) & 0xFF)
                let exponent = word & (0x80 << 32) != 0 ? -exponentMagnitude : exponentMagnitude
                guard let value = Self.usualFloat(negative: word & 0x80 != 0, magnitude: (word >> 8) & 0xFF_FFFF,
                                                  exponent: exponent) else { break }
                destination[done] = value
                done += 1
                position += 6
                continue
            }
            let control1 = UInt8(truncatingIfNeeded: word)
            let size1 = Int(control1 & 0x0F)
            guard control1 & 0x70 == 0, (1...8).contains(size1) else { break }
            let magnitude = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: 1, as: UInt64.self)) & (~0 >> (64 - 8 * size1))
            let q = p + 1 + size1
            let control2 = q.load(as: UInt8.self)
            let size2 = Int(control2 & 0x0F)
            guard control2 & 0x70 == 0, (1...2).contains(size2), magnitude >> 63 == 0 else { break }
            let exponentMagnitude = Int(UInt64(littleEndian: q.loadUnaligned(fromByteOffset: 1, as: UInt64.self)) & (~0 >> (64 - 8 * size2)))
            let exponent = control2 & 0x80 != 0 ? -exponentMagnitude : exponentMagnitude
            guard let value = Self.usualFloat(negative: control1 & 0x80 != 0, magnitude: magnitude, exponent: exponent) else { break }
            destination[done] = value
            done += 1
            position += 2 + size1 + size2
        }
        offset = position
        return done
    }

    /// `readDouble()`'s value made a float, for a mantissa below 2^63 and an exponent of a normal
    /// double: `Double(sign:exponent:significand:)` there is the signed mantissa times 2^exponent
    /// (one exact multiplication). Nil for another exponent or a result that is not a finite float.
    @inline(__always)
    private static func usualFloat(negative: Bool, magnitude: UInt64, exponent: Int) -> Float? {
        guard exponent >= -1022, exponent <= 1023 else { return nil }
        let mantissa = negative ? -Int64(magnitude) : Int64(magnitude)
        let value = Float(Double(mantissa) * Double(bitPattern: UInt64(1023 + exponent) << 52))
        return value.isFinite ? value : nil
    }

    /// A `matrix<double,0,1>`: its values. The declared length is checked against the bytes
    /// that remain (every serialized double takes at least 4 bytes) before anything is allocated.
    public mutating func readDoubleColumnVector(max limit: Int) throws -> [Double] {
        let count = try readColumnVectorSize(max: limit)
        guard count <= remaining / 4 else { throw Failure.truncated(offset + remaining) }
        var values = [Double](repeating: 0, count: count)
        for i in 0..<count { values[i] = try readDouble() }
        return values
    }
}

/// A tensor read from a dlib file: dimensions (samples, k, rows, columns) and row-major values.
public struct DlibTensor: Sendable, Equatable {
    public let samples: Int, channels: Int, rows: Int, columns: Int
    public let values: [Float]

    public init(samples: Int, channels: Int, rows: Int, columns: Int, values: [Float]) {
        self.samples = samples
        self.channels = channels
        self.rows = rows
        self.columns = columns
        self.values = values
    }
}
