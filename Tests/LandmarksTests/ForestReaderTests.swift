import DlibFormat
import Foundation
@testable import Landmarks
import XCTest

/// Reading a model's trees on two threads gives the one-thread result, and the second thread's
/// work is thrown away whenever it did not start exactly where the first thread arrives.
final class ForestReaderTests: XCTestCase {
    private func packed(_ value: Int) -> [UInt8] { DlibBytes.packed(value) }

    /// Forests of `cascades` × `trees` trees of one split and two leaves of 4 values (2
    /// landmarks), each value written by `value(cascade, tree, index)` as dlib's float bytes.
    private func forests(cascades: Int, trees: Int, value: (Int, Int, Int) -> [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        for cascade in 0..<cascades {
            bytes += packed(trees)
            for tree in 0..<trees {
                bytes += packed(1) + packed(tree % 3) + packed(cascade % 5) + value(cascade, tree, 0) + packed(2)
                for leaf in 0..<2 {
                    bytes += packed(-4) + packed(-1)
                    for i in 0..<4 { bytes += value(cascade, tree, 1 + 4 * leaf + i) }
                }
            }
        }
        return bytes
    }

    /// A float as (mantissa, exponent): its bytes, and every value differs.
    private func float(_ cascade: Int, _ tree: Int, _ index: Int, mantissaBytes: Int) -> [UInt8] {
        let mantissa = (1 << (8 * mantissaBytes - 1)) + cascade * 97 + tree * 13 + index
        return packed(index % 2 == 0 ? mantissa : -mantissa) + packed(-30)
    }

    private struct Reading {
        var splits: [ShapePredictor.Split]
        var leaves: [Float]
        var end: Int
        var secondThreadCascades: Int
    }

    private func read(_ bytes: [UInt8], cascades: Int, shapeSize: Int, threads: Int, splitBytes: Int = 0) throws -> Reading {
        try bytes.withUnsafeBytes { raw in
            var reader = DlibDeserializer(raw)
            var forests = ForestReader(cascades: cascades, shapeSize: shapeSize)
            try forests.read(&reader, bytes: raw, threads: threads, splitBytes: splitBytes)
            let leaves = Array(UnsafeBufferPointer(start: forests.leaves.base, count: forests.leaves.count))
            return Reading(splits: forests.splits, leaves: leaves, end: reader.offset,
                           secondThreadCascades: forests.secondThreadCascades)
        }
    }

    private func assertSame(_ a: Reading, _ b: Reading, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(a.end, b.end, file: file, line: line)
        XCTAssertEqual(a.splits.map { [Int($0.feature1), Int($0.feature2), Int($0.threshold)] },
                       b.splits.map { [Int($0.feature1), Int($0.feature2), Int($0.threshold)] }, file: file, line: line)
        XCTAssertEqual(a.leaves.map(\.bitPattern), b.leaves.map(\.bitPattern), file: file, line: line)
    }

    func testTheDebianModelReadOnTwoThreadsIsTheSame() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: ModelFixture.path))
        let one = try ShapePredictor(serialized: data, path: ModelFixture.path, threads: 1)
        let two = try ShapePredictor(serialized: data, path: ModelFixture.path, threads: 2)
        XCTAssertEqual(one.structure, two.structure)
        XCTAssertEqual(one.splits.count, two.splits.count)
        XCTAssertTrue(zip(one.splits, two.splits).allSatisfy {
            $0.feature1 == $1.feature1 && $0.feature2 == $1.feature2 && $0.threshold == $1.threshold
        })
        XCTAssertEqual(one.leaves.count, two.leaves.count)
        XCTAssertEqual(memcmp(one.leaves.base, two.leaves.base, one.leaves.count * MemoryLayout<Float>.size), 0)
        XCTAssertEqual(one.anchors, two.anchors)
        XCTAssertEqual(one.deltas, two.deltas)

        // The second thread's half was kept (cascades 8–14), at the default size threshold.
        let cascadesOffset = try data.withUnsafeBytes { raw in
            var reader = DlibDeserializer(raw)
            _ = try reader.readSigned()
            for _ in 0..<(try reader.readColumnVectorSize(max: 1000)) { _ = try reader.readFloat() }
            XCTAssertEqual(try reader.readCount(max: 1000, what: "cascade"), 15)
            return reader.offset
        }
        let reading = try read(Array(data[cascadesOffset...]), cascades: 15, shapeSize: 136, threads: 2,
                               splitBytes: ForestReader.defaultSplitBytes)
        XCTAssertEqual(reading.secondThreadCascades, 7)
    }

    func testSmallForestsAndOneThreadStayOnOneThread() throws {
        let bytes = forests(cascades: 6, trees: 4) { float($0, $1, $2, mantissaBytes: 3) }
        let two = try read(bytes, cascades: 6, shapeSize: 4, threads: 2)
        XCTAssertEqual(two.secondThreadCascades, 3)
        let one = try read(bytes, cascades: 6, shapeSize: 4, threads: 1)
        XCTAssertEqual(one.secondThreadCascades, 0)
        assertSame(one, two)
        XCTAssertEqual(one.end, bytes.count)
        XCTAssertEqual(try read(bytes, cascades: 6, shapeSize: 4, threads: 2, splitBytes: bytes.count + 1).secondThreadCascades, 0)
    }

    /// Cascade 0 shorter than the rest puts the search in cascade 2, whose values all hold the
    /// bytes a cascade starts with (tree count 4, split count 1): the second thread starts inside
    /// a value, fails there, and the first thread reads that half itself.
    func testASecondThreadStartingInsideAValueIsOverruled() throws {
        let marker = packed(4) + packed(1)  // 01 04 01 01
        XCTAssertEqual(marker, [1, 4, 1, 1])
        let bytes = forests(cascades: 6, trees: 4) { cascade, tree, index in
            if cascade == 0 { return self.float(cascade, tree, index, mantissaBytes: 2) }
            if cascade == 2 { return [0x03, UInt8(index), 0x01, 0x04, 0x01, 0x01] }  // mantissa 0x0401xx, exponent 1
            return self.float(cascade, tree, index, mantissaBytes: 3)
        }
        let two = try read(bytes, cascades: 6, shapeSize: 4, threads: 2)
        XCTAssertEqual(two.secondThreadCascades, 0)
        assertSame(try read(bytes, cascades: 6, shapeSize: 4, threads: 1), two)
    }

    /// Cascade 0 much shorter than the rest puts the search at the start of cascade 2, not 3: a
    /// real cascade start, but not the one the second thread counts on, so its work is dropped.
    func testASecondThreadStartingAtAnotherCascadeIsOverruled() throws {
        let bytes = forests(cascades: 6, trees: 4) { cascade, tree, index in
            self.float(cascade, tree, index, mantissaBytes: cascade == 0 ? 1 : 8)
        }
        let two = try read(bytes, cascades: 6, shapeSize: 4, threads: 2)
        XCTAssertEqual(two.secondThreadCascades, 0)
        assertSame(try read(bytes, cascades: 6, shapeSize: 4, threads: 1), two)
    }

    func testErrorsInEitherHalfAreTheOneThreadErrors() throws {
        for brokenCascade in [1, 4] {
            let broken = forests(cascades: 6, trees: 4) { cascade, tree, index in
                cascade == brokenCascade && tree == 2 && index == 5 ? [0x70, 1, 1, 1] : self.float(cascade, tree, index, mantissaBytes: 3)
            }
            var errors: [String] = []
            for threads in [1, 2] {
                XCTAssertThrowsError(try read(broken, cascades: 6, shapeSize: 4, threads: threads)) { errors.append("\($0)") }
            }
            XCTAssertEqual(errors.count, 2)
            XCTAssertEqual(errors.first, errors.last, "a bad byte in cascade \(brokenCascade)")
            XCTAssertTrue(errors.first?.contains("unexpected byte 0x70") ?? false, errors.first ?? "")
        }
        let good = forests(cascades: 6, trees: 4) { float($0, $1, $2, mantissaBytes: 3) }
        for cut in [good.count / 4, good.count * 3 / 4, good.count - 3] {
            XCTAssertThrowsError(try read(Array(good[..<cut]), cascades: 6, shapeSize: 4, threads: 2)) { error in
                XCTAssertEqual(error as? DlibDeserializer.Failure, .truncated(cut))
            }
        }
    }
}
