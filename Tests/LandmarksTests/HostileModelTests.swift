import DlibFormat
import Foundation
import Landmarks
import XCTest

/// Model files whose headers declare more than the file holds (reliability finding D2): they are
/// refused before anything is allocated for them.
final class HostileModelTests: XCTestCase {
    private func packed(_ value: Int) -> [UInt8] { DlibBytes.packed(value) }

    private func float(_ value: Double) -> [UInt8] { packed(Int(value * 1024)) + packed(-10) }

    /// A header for `cascades` × `trees` trees of one split and two leaves, then nothing: the
    /// reproduction of the finding (700 bytes asking for 108 GB of leaves).
    private func header(shape: Int, cascades: Int, trees: Int) -> Data {
        var bytes = packed(1) + packed(-shape) + packed(-1)
        for i in 0..<shape { bytes += float(Double(i % 7) * 0.1) }
        bytes += packed(cascades) + packed(trees) + packed(1) + packed(0) + packed(1) + float(0.1) + packed(2)
        return Data(bytes)
    }

    func testAHeaderAskingFor108GigabytesIsTruncatedNotAllocated() throws {
        let data = header(shape: 136, cascades: 1000, trees: 100_000)
        XCTAssertLessThan(data.count, 1000)
        XCTAssertThrowsError(try ShapePredictor(serialized: data, path: "m108g.dat")) { error in
            guard case .truncated? = (error as? DlibModelError)?.reason else { return XCTFail("\(error)") }
        }
    }

    func testAHeaderAskingForGigabytesIsRefusedWithoutGrowingMemory() throws {
        let data = header(shape: 136, cascades: 1000, trees: 5500)
        let before = residentBytes()
        XCTAssertThrowsError(try ShapePredictor(serialized: data, path: "m6g.dat"))
        XCTAssertLessThan(residentBytes() - before, 100 << 20, "refused before allocating the declared leaves")
    }

    func testCommittedCrashInputsAreRefused() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fuzz/corpus/dlib-model")
        let files = try FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix("crash-") || $0.lastPathComponent.hasPrefix("oom-") }
        XCTAssertFalse(files.isEmpty, "the fuzz corpus keeps the inputs that crashed")
        for file in files {
            XCTAssertThrowsError(try ShapePredictor(serialized: try Data(contentsOf: file), path: file.path), file.path)
        }
    }

    func testReadCountChecksTheBytesThatRemain() throws {
        let bytes: [UInt8] = [0x02, 0xE8, 0x03] + [UInt8](repeating: 0x01, count: 10)  // count 1000, then 10 bytes
        try bytes.withUnsafeBytes { raw in
            var reader = DlibDeserializer(raw)
            XCTAssertThrowsError(try reader.readCount(max: 10_000, bytesEach: 2, what: "leaf")) { error in
                XCTAssertEqual(error as? DlibDeserializer.Failure, .truncated(bytes.count))
            }
            var fits = DlibDeserializer(raw)
            XCTAssertThrowsError(try fits.readCount(max: 10_000, what: "byte"), "1000 one-byte elements in 10 bytes")
            XCTAssertThrowsError(try fits.requireRoom(for: [Int.max, 2], bytesEach: 8, what: "overflow"))
        }
        try [UInt8]([0x01, 0x05] + [UInt8](repeating: 0x01, count: 10)).withUnsafeBytes { raw in
            var reader = DlibDeserializer(raw)
            XCTAssertEqual(try reader.readCount(max: 10, bytesEach: 2, what: "leaf"), 5)
        }
    }

    private func residentBytes() -> Int {
        let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
        return (Int(statm.split(separator: " ")[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
