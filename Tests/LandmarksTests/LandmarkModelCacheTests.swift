import CLandmarkKernels
import FaceCore
import Foundation
import Imaging
@testable import Landmarks
import XCTest

/// The landmark model's ready-to-map copy gives the model read from its `.dat` file, bit for
/// bit, and a copy that is not that model's (damaged, cut short, stale, hostile) is never used.
final class LandmarkModelCacheTests: XCTestCase {
    private var folder = ""
    private var cache: LandmarkModelCache { LandmarkModelCache(directory: folder + "/cache") }
    private var copy: String { cache.file(for: ModelFixture.path) }

    override func setUpWithError() throws {
        folder = NSTemporaryDirectory() + "facewatch-model-cache-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(atPath: folder)
    }

    private func load() throws -> ShapePredictor {
        try ShapePredictor(contentsOf: ModelFixture.path, cache: cache)
    }

    /// Fits on the landmark fixture photos, at the fixture boxes and at boxes moved off them.
    private func fits(_ predictor: ShapePredictor) throws -> [[UInt32]] {
        let folder = ModelFixture.fixture("landmarks")
        let photos = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".jpg") }.sorted()
        XCTAssertGreaterThan(photos.count, 2)
        var decoder = JPEGDecoder(), out: [[UInt32]] = []
        for photo in photos.prefix(4) {
            let image = try decoder.decodeGray(Data(contentsOf: folder.appendingPathComponent(photo)))
            for box in [FaceBox(x: image.width / 4, y: image.height / 5, width: image.width / 2, height: image.width / 2),
                        FaceBox(x: 10, y: 20, width: image.width / 3, height: image.width / 3)] {
                out.append(predictor.fit(image, box: box).points.flatMap { [$0.x.bitPattern, $0.y.bitPattern] })
            }
        }
        return out
    }

    /// Changes the copy's bytes at `offset` with `change`, keeping or recomputing its checksum.
    private func edit(at offset: Int, rechecksum: Bool = false, _ change: (UnsafeMutableRawPointer) -> Void) throws {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: copy))
        bytes.withUnsafeMutableBytes { raw in
            change(raw.baseAddress! + offset)
            if rechecksum {
                let words = raw.baseAddress!.assumingMemoryBound(to: UInt64.self)
                words[12] = landmarks_checksum(raw.baseAddress! + CachedModelHeader.bytes, raw.count - CachedModelHeader.bytes)
            }
        }
        try bytes.write(to: URL(fileURLWithPath: copy))
    }

    func testTheCopyGivesTheModelReadFromTheDatFile() throws {
        let read = try load()
        XCTAssertFalse(read.fromCache)
        XCTAssertTrue(FileManager.default.fileExists(atPath: copy), "the first load writes the copy")
        let mapped = try load()
        XCTAssertTrue(mapped.fromCache)
        XCTAssertEqual(mapped.structure, read.structure)
        XCTAssertEqual(mapped.initialShape.map(\.bitPattern), read.initialShape.map(\.bitPattern))
        XCTAssertEqual(mapped.anchors, read.anchors)
        XCTAssertEqual(mapped.splits.map { [$0.feature1, $0.feature2] }, read.splits.map { [$0.feature1, $0.feature2] })
        XCTAssertEqual(mapped.splits.map(\.threshold), read.splits.map(\.threshold))
        XCTAssertEqual(mapped.leaves.count, read.leaves.count)
        XCTAssertEqual(memcmp(mapped.leaves.base, read.leaves.base, read.leaves.count * 4), 0, "leaf values bit for bit")
        XCTAssertEqual(try fits(mapped), try fits(read))
        XCTAssertEqual(try fits(mapped), try fits(ModelFixture.predictor()))
    }

    func testLeavesTheKernelDidNotMapWithHugePagesAreCopiedOut() throws {
        let read = try load()
        let copied = try XCTUnwrap(ShapePredictor.mappedParts(copy, source: ModelFixture.path, hugeFraction: 2))
        XCTAssertNil(copied.5.mapping, "the leaves were copied into allocated memory")
        let mapped = try XCTUnwrap(ShapePredictor.mappedParts(copy, source: ModelFixture.path, hugeFraction: 0))
        XCTAssertNotNil(mapped.5.mapping)
        for parts in [copied, mapped] {
            XCTAssertEqual(memcmp(parts.5.base, read.leaves.base, read.leaves.count * 4), 0)
            let predictor = ShapePredictor(path: ModelFixture.path, parts: parts, fromCache: true)
            XCTAssertEqual(try fits(predictor), try fits(read))
        }
    }

    func testTheMappingsPagesAreReadFromSmaps() throws {
        _ = try load()
        let parts = try XCTUnwrap(ShapePredictor.mappedParts(copy, source: ModelFixture.path, hugeFraction: 0))
        let mapping = try XCTUnwrap(parts.5.mapping)
        let pages = (mapping.length + 4095) / 4096 * 4096
        XCTAssertEqual(ShapePredictor.smapsBytes("Size", ofMappingAt: mapping.start), pages)
        XCTAssertEqual(ShapePredictor.smapsBytes("Rss", ofMappingAt: mapping.start), pages, "populated at once")
        let huge = ShapePredictor.hugeMappedBytes(at: mapping.start)
        XCTAssertEqual(huge % (2 << 20), 0, "whole 2 MiB pages")
        XCTAssertLessThanOrEqual(huge, pages)
        XCTAssertEqual(ShapePredictor.smapsBytes("Size", ofMappingAt: UnsafeRawPointer(bitPattern: 4096)!), 0, "no such mapping")
    }

    func testADamagedCopyIsNotUsedAndIsWrittenAgain() throws {
        _ = try load()
        let size = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: copy)[.size] as? Int)
        try edit(at: size - 1000) { $0.storeBytes(of: $0.load(as: UInt8.self) ^ 0x10, as: UInt8.self) }
        let afterDamage = try load()
        XCTAssertFalse(afterDamage.fromCache, "one changed bit in a leaf")
        XCTAssertEqual(try fits(afterDamage), try fits(ModelFixture.predictor()))
        XCTAssertTrue(try load().fromCache, "the damaged copy was replaced")

        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: copy))
        try handle.truncate(atOffset: UInt64(size / 2))
        try handle.close()
        XCTAssertFalse(try load().fromCache, "a copy cut short")
        XCTAssertTrue(try load().fromCache)

        try FileManager.default.removeItem(atPath: copy)
        XCTAssertEqual(mkfifo(copy, 0o600), 0)
        XCTAssertFalse(try load().fromCache, "a FIFO where the copy was: not opened for long, not read")
        XCTAssertTrue(try load().fromCache, "and replaced by a copy")
    }

    func testACopyOfAnotherVersionOfTheModelFileIsNotUsed() throws {
        _ = try load()
        // The header's modification time of the model file (word 5), one second off.
        try edit(at: 5 * 8) { $0.storeBytes(of: $0.load(as: UInt64.self) &+ 1, as: UInt64.self) }
        XCTAssertFalse(try load().fromCache)
        try edit(at: 0) { $0.storeBytes(of: 0, as: UInt64.self) }
        XCTAssertFalse(try load().fromCache, "not a copy's magic")
    }

    func testACopyWithAFeatureIndexOutOfRangeIsRefusedEvenWithItsChecksum() throws {
        let read = try load()
        let layout = try XCTUnwrap(CachedModelLayout(read.structure))
        try edit(at: layout.splits.lowerBound + 8 * 1234, rechecksum: true) { $0.storeBytes(of: UInt16(500), as: UInt16.self) }
        XCTAssertFalse(try load().fromCache)
        try edit(at: layout.anchors.lowerBound + 2 * 77, rechecksum: true) { $0.storeBytes(of: UInt16(68), as: UInt16.self) }
        XCTAssertFalse(try load().fromCache, "an anchor landmark out of range")
    }

    func testAFolderThatCannotBeWrittenOnlyCostsTheCopy() throws {
        let blocked = folder + "/file"
        XCTAssertTrue(FileManager.default.createFile(atPath: blocked, contents: Data()))
        let blockedCache = LandmarkModelCache(directory: blocked + "/cache")
        let predictor = try ShapePredictor(contentsOf: ModelFixture.path, cache: blockedCache)
        XCTAssertFalse(predictor.fromCache)
        XCTAssertEqual(predictor.structure, try ModelFixture.predictor().structure)
        let source = try XCTUnwrap(CachedModelHeader.SourceIdentity(path: ModelFixture.path))
        XCTAssertFalse(predictor.store(in: blockedCache, source: source))
        // A writer killed before its rename left its temporary file; a running one's is kept.
        try FileManager.default.createDirectory(atPath: cache.directory, withIntermediateDirectories: true)
        for pid in [Int32.max, 1] { XCTAssertTrue(FileManager.default.createFile(atPath: copy + ".\(pid).tmp", contents: Data([1]))) }
        XCTAssertTrue(predictor.store(in: cache, source: source))
        let name = (copy as NSString).lastPathComponent
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cache.directory).sorted(), [name, name + ".1.tmp"],
                       "the copy, the running writer's file, and no other temporary file")
        XCTAssertThrowsError(try ShapePredictor(contentsOf: folder + "/missing.dat", cache: cache)) { error in
            XCTAssertTrue("\(error)".contains("missing.dat"), "\(error)")
        }
    }

    func testTheStandardFolderFollowsXDG() {
        XCTAssertEqual(LandmarkModelCache.standard(environment: ["XDG_CACHE_HOME": "/x", "HOME": "/h"])?.directory, "/x/facewatch")
        XCTAssertEqual(LandmarkModelCache.standard(environment: ["HOME": "/h"])?.directory, "/h/.cache/facewatch")
        XCTAssertEqual(LandmarkModelCache.standard(environment: ["XDG_CACHE_HOME": "relative", "HOME": "/h"])?.directory,
                       "/h/.cache/facewatch")
        XCTAssertNil(LandmarkModelCache.standard(environment: [:]))
        XCTAssertNotEqual(cache.file(for: "/a/model.dat"), cache.file(for: "/b/model.dat"))
    }
}
