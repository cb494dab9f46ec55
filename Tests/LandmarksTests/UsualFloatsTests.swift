import CDlibFormatKernels
@testable import DlibFormat
import Foundation
@testable import Landmarks
import XCTest

/// `DlibDeserializer.readUsualFloats`, the fast path that reads the model's 16 million leaf
/// values, must give what `readFloat()` gives, bit for bit, and leave every other encoding (and
/// every broken one) to it.
final class UsualFloatsTests: XCTestCase {
    /// dlib's packed integer: a control byte (size, sign bit 0x80) and little-endian magnitude bytes.
    private func packed(magnitude: UInt64, negative: Bool, size: Int? = nil) -> [UInt8] {
        var bytes: [UInt8] = []
        var rest = magnitude
        repeat {
            bytes.append(UInt8(rest & 0xFF))
            rest >>= 8
        } while rest > 0
        while bytes.count < (size ?? 0) { bytes.append(0) }  // a longer encoding than needed
        return [UInt8(bytes.count) | (negative ? 0x80 : 0)] + bytes
    }

    private func packed(_ value: Int64) -> [UInt8] { packed(magnitude: value.magnitude, negative: value < 0) }

    /// dlib's `float_details` of a float: frexp's mantissa as a 24-bit integer, low zero bytes
    /// shifted off.
    private func dlibFloat(_ value: Float) -> [UInt8] {
        if value.isInfinite { return packed(0) + packed(value < 0 ? 32001 : 32000) }
        if value.isNaN { return packed(0) + packed(32002) }
        // (Foundation's `frexp` returns the fraction's magnitude: the sign is put back here.)
        let (fraction, exponent) = frexp(Double(value.magnitude))
        var mantissa = Int64(fraction * Double(1 << 24)) * (value < 0 ? -1 : 1), scale = Int64(exponent - 24)
        var shifts = 0
        while shifts < 8 && mantissa & 0xFF == 0 {
            mantissa >>= 8
            scale += 8
            shifts += 1
        }
        return packed(mantissa) + packed(scale)
    }

    /// Reads the stream value by value with `readFloat()`: the values' bit patterns and the error.
    private func generalRead(_ bytes: [UInt8]) -> (values: [UInt32], error: DlibDeserializer.Failure?, offset: Int) {
        bytes.withUnsafeBytes { raw in
            var reader = DlibDeserializer(raw)
            var values: [UInt32] = []
            while !reader.isAtEnd {
                do { values.append(try reader.readFloat().bitPattern) } catch {
                    return (values, error as? DlibDeserializer.Failure, reader.offset)
                }
            }
            return (values, nil, reader.offset)
        }
    }

    /// Reads the stream as the model parser does: the fast path, and `readFloat()` for whatever
    /// it leaves. Also returns how many values the fast path read.
    private func usualRead(_ bytes: [UInt8], count: Int, avx2: Bool) -> (values: [UInt32], error: DlibDeserializer.Failure?, offset: Int, fast: Int) {
        bytes.withUnsafeBytes { raw in
            var reader = DlibDeserializer(raw)
            var values = [Float](repeating: 0, count: count)
            var done = 0, fast = 0
            while done < count && !reader.isAtEnd {
                let read = values.withUnsafeMutableBufferPointer {
                    reader.readUsualFloats(into: $0.baseAddress! + done, count: count - done, avx2: avx2)
                }
                done += read
                fast += read
                if done < count && !reader.isAtEnd {
                    do { values[done] = try reader.readFloat() } catch {
                        return (values[..<done].map(\.bitPattern), error as? DlibDeserializer.Failure, reader.offset, fast)
                    }
                    done += 1
                }
            }
            return (values[..<done].map(\.bitPattern), nil, reader.offset, fast)
        }
    }

    /// Compares the fast path, with and without the AVX2 kernel where the CPU has it, with the
    /// general reader; returns how many values the fast path read.
    private func assertSameAsGeneral(_ bytes: [UInt8], count: Int, _ what: String, file: StaticString = #filePath, line: UInt = #line) -> Int {
        let general = generalRead(bytes)
        var fast = 0
        for avx2 in DlibDeserializer.avx2 ? [false, true] : [false] {
            let usual = usualRead(bytes, count: count, avx2: avx2)
            XCTAssertEqual(usual.values, Array(general.values.prefix(count)), "\(what), avx2 \(avx2)", file: file, line: line)
            XCTAssertEqual(usual.error, general.error, "\(what), avx2 \(avx2)", file: file, line: line)
            if general.error == nil { XCTAssertEqual(usual.offset, general.offset, "\(what), avx2 \(avx2)", file: file, line: line) }
            fast = usual.fast
        }
        return fast
    }

    func testDlibEncodedFloatsReadTheSameAndTakeTheFastPath() {
        var generator = SystemRandomNumberGenerator()
        var values: [Float] = [0, 1, -1, .leastNormalMagnitude, -.leastNormalMagnitude, .leastNonzeroMagnitude,
                               .greatestFiniteMagnitude, -.greatestFiniteMagnitude, 0.1, 1e-30, 3e30]
        for _ in 0..<20_000 {
            // Leaf-like values, and any finite float at all (random bit patterns).
            values.append(Float.random(in: -0.05...0.05, using: &generator))
            let bits = UInt32.random(in: 0...UInt32.max, using: &generator)
            if Float(bitPattern: bits).isFinite { values.append(Float(bitPattern: bits)) }
        }
        let bytes = values.flatMap(dlibFloat)
        let fast = assertSameAsGeneral(bytes, count: values.count, "dlib-encoded floats")
        let decoded = generalRead(bytes).values
        XCTAssertEqual(decoded.count, values.count)
        for (read, value) in zip(decoded, values) where read != value.bitPattern {
            return XCTFail("the encoder is not dlib's: \(value) read as \(Float(bitPattern: read))")
        }
        // Only the last floats (within 18 bytes of the end) need the general reader.
        XCTAssertGreaterThanOrEqual(fast, values.count - 3)
    }

    func testOtherEncodingsGiveTheGeneralReadersValues() {
        var bytes: [UInt8] = []
        var count = 0
        func add(_ mantissa: UInt64, negative: Bool = false, size: Int? = nil, exponent: Int64) {
            bytes += packed(magnitude: mantissa, negative: negative, size: size) + packed(exponent)
            count += 1
        }
        add(0, negative: true, exponent: 40)                   // "-0": dlib reads +0
        add(5, size: 8, exponent: -3)                          // padded mantissa
        add((1 << 53) + 1, exponent: -60)                      // rounds when made a double
        add(UInt64(Int64.max), exponent: -1000)                // the largest mantissa
        add(3, negative: true, exponent: -1022)                // smallest normal scale: float -0
        add(3, exponent: 1023)                                 // largest scale: float infinity
        add(3, exponent: -1023)                                // beyond: the general reader's
        add(3, exponent: 1024)
        add(1, exponent: -140)                                 // a float subnormal
        add(1 << 40, exponent: -100)
        add(7, exponent: 32000)                                // dlib's infinity, -infinity, NaN
        add(7, exponent: 32001)
        add(7, exponent: 32002)
        add(11, negative: true, exponent: 20)
        add(0xFF_FFFF, exponent: 255)                          // the six-byte form: float infinity
        add(0xFF_FFFF, negative: true, exponent: -255)         // the six-byte form: float -0
        add(0, negative: true, size: 3, exponent: -1)          // "-0" in the six-byte form
        add(0x12, size: 3, exponent: -7)                       // padded into the six-byte form
        add(0xAB_CDEF, negative: true, exponent: 130)          // the six-byte form, large
        bytes += [UInt8](repeating: 0, count: 40)  // zero-size integers: malformed
        _ = assertSameAsGeneral(bytes, count: count + 10, "unusual encodings")
        for cut in stride(from: bytes.count - 60, to: bytes.count - 40, by: 1) {
            _ = assertSameAsGeneral(Array(bytes.prefix(cut)), count: count, "cut at \(cut)")
        }
    }

    /// The AVX2 kernel reads whole groups of four six-byte floats, and stops before a group with
    /// another form, a float that overflows, or too few bytes left for its loads.
    func testTheKernelReadsGroupsOfSixByteFloats() throws {
        try XCTSkipUnless(DlibDeserializer.avx2, "this CPU has no AVX2")
        func six(_ magnitude: UInt64, negative: Bool = false, exponent: Int64) -> [UInt8] {
            packed(magnitude: magnitude, negative: negative, size: 3) + packed(exponent)
        }
        var usual: [UInt8] = []
        for i in 0..<10 { usual += six(0x12_3456 + UInt64(i), negative: i % 3 == 0, exponent: Int64(i) - 40) }
        func kernel(_ bytes: [UInt8], count: Int) -> (read: Int, values: [UInt32]) {
            var values = [Float](repeating: .nan, count: count)
            let read = bytes.withUnsafeBufferPointer { raw -> Int in
                values.withUnsafeMutableBufferPointer { out -> Int in
                    dlib_read_six_byte_floats_avx2(raw.baseAddress!, raw.count, out.baseAddress!, count)
                }
            }
            return (read, values.prefix(read).map { $0.bitPattern })
        }
        let all = kernel(usual + [UInt8](repeating: 0, count: 8), count: 10)
        XCTAssertEqual(all.read, 8, "two groups of four; the last two values are the loop's")
        XCTAssertEqual(all.values, generalRead(Array(usual.prefix(48))).values)
        XCTAssertEqual(kernel(Array(usual.prefix(48)), count: 8).read, 4, "the second group's loads would pass the end")
        XCTAssertEqual(kernel(usual + [UInt8](repeating: 0, count: 8), count: 7).read, 4, "no group past count")
        var other = usual
        other.replaceSubrange(30..<36, with: packed(magnitude: 0x1234, negative: false) + packed(magnitude: 5, negative: false, size: 2))
        XCTAssertEqual(kernel(other + [UInt8](repeating: 0, count: 8), count: 10).read, 4, "a group with another form")
        var huge = usual
        huge.replaceSubrange(6..<12, with: six(0xFF_FFFF, exponent: 120))
        XCTAssertEqual(kernel(huge + [UInt8](repeating: 0, count: 8), count: 10).read, 0, "a float that overflows")
    }

    func testMalformedNumbersStopTheFastPath() {
        let good = dlibFloat(0.25)
        for bad: [UInt8] in [[0x11, 1], [0x09, 1, 2, 3, 4, 5, 6, 7, 8, 9], [0x00], [0x88, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF],
                             [0x81, 0x05, 0x03, 1, 2, 3]] {
            let bytes = Array(repeating: good, count: 5).flatMap { $0 } + bad + Array(repeating: good, count: 5).flatMap { $0 }
            _ = assertSameAsGeneral(bytes, count: 11, "bad number \(bad)")
        }
    }

    /// The whole 68-point model: every leaf value in the loaded predictor equals the general
    /// reader's value for it, read here with the file's layout walked independently.
    func testEveryLeafOfTheModelIsTheGeneralReadersValue() throws {
        let predictor = try ModelFixture.predictor()
        let data = try Data(contentsOf: URL(fileURLWithPath: ModelFixture.path), options: .alwaysMapped)
        let (checked, mismatches) = try data.withUnsafeBytes { raw -> (Int, Int) in
            var reader = DlibDeserializer(raw)
            _ = try reader.readSigned()
            for _ in 0..<(try reader.readColumnVectorSize(max: 1000)) { _ = try reader.readFloat() }
            let cascades = try reader.readCount(max: 1000, what: "cascade")
            var index = 0, mismatches = 0
            for _ in 0..<cascades {
                for _ in 0..<(try reader.readCount(max: 100_000, what: "tree")) {
                    for _ in 0..<(try reader.readCount(max: 1 << 16, what: "split")) {
                        _ = try reader.readUnsigned()
                        _ = try reader.readUnsigned()
                        _ = try reader.readFloat()
                    }
                    for _ in 0..<(try reader.readCount(max: 1 << 17, what: "leaf")) {
                        for _ in 0..<(try reader.readColumnVectorSize(max: 1000)) {
                            if try reader.readFloat().bitPattern != predictor.leaves.base[index].bitPattern { mismatches += 1 }
                            index += 1
                        }
                    }
                }
            }
            return (index, mismatches)
        }
        XCTAssertEqual(checked, predictor.leaves.count)
        XCTAssertEqual(checked, 15 * 500 * 16 * 136)
        XCTAssertEqual(mismatches, 0)
    }
}
