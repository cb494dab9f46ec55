import Dispatch
import DlibFormat
import Foundation

/// Reads dlib's `forests` (per cascade, a list of regression trees: splits, then leaf vectors)
/// into split nodes and a ``LeafStorage``; this is 98 % of a model file (16.3 million leaf
/// values in the 68-point model).
///
/// With `threads: 2` the second half of the cascades is read on a second thread, found by the
/// bytes every cascade starts with (its tree count and its first tree's split count, as in
/// cascade 0) near where cascade sizes put it. That thread's work is kept only when the first
/// thread, reading on, arrives at that cascade at exactly the offset the second one started
/// from; otherwise the first thread reads those cascades again itself. So the result, and any
/// error and its message, are the one-thread reading's.
struct ForestReader {
    typealias Split = ShapePredictor.Split
    typealias Failure = DlibDeserializer.Failure

    let cascades: Int
    /// Floats per leaf (twice the landmarks).
    let shapeSize: Int
    private(set) var treesPerCascade = 0
    private(set) var splitsPerTree = 0
    private(set) var leavesPerTree = 0
    /// Per cascade × tree × node.
    fileprivate(set) var splits: [Split] = []
    private(set) var leaves = LeafStorage(count: 0)
    /// Cascades whose reading by the second thread was kept (for tests).
    private(set) var secondThreadCascades = 0

    /// Forests smaller than this are read on one thread: a second one would not pay for itself.
    static let defaultSplitBytes = 8 << 20

    init(cascades: Int, shapeSize: Int) {
        self.cascades = cascades
        self.shapeSize = shapeSize
    }

    /// Reads every cascade from `reader`'s offset (the first cascade's tree count), leaving
    /// `reader` after the last tree. `splitBytes`: the smallest forest read on two threads.
    mutating func read(_ reader: inout DlibDeserializer, bytes: UnsafeRawBufferPointer, threads: Int,
                       splitBytes: Int = defaultSplitBytes) throws {
        let start = reader.offset
        let markerEnd = try readCascade(&reader, 0)
        let cascadeBytes = reader.offset - start
        let half = (cascades + 1) / 2
        let (forestBytes, overflow) = cascadeBytes.multipliedReportingOverflow(by: cascades)
        guard threads > 1, cascades >= 3, !overflow, forestBytes >= splitBytes,
              let second = Self.findCascadeStart(in: bytes, marker: start..<markerEnd,
                                                 near: start + half * cascadeBytes, within: cascadeBytes / 2)
        else {
            for cascade in 1..<cascades { try readCascade(&reader, cascade) }
            return
        }

        let job = SecondHalf(reader: self, bytes: bytes, offset: second, firstCascade: half)
        let done = DispatchGroup()
        DispatchQueue.global().async(group: done) { job.run() }
        defer { done.wait() }  // its leaf writes end before any return or throw
        for cascade in 1..<half { try readCascade(&reader, cascade) }
        done.wait()
        if reader.offset == second, let (end, splits) = job.result {
            self.splits += splits
            reader = DlibDeserializer(bytes, offset: end)
            secondThreadCascades = cascades - half
        } else {
            for cascade in half..<cascades { try readCascade(&reader, cascade) }
        }
    }

    /// The offset of the copy of `bytes[marker]` nearest to `expected`, at most `distance` away.
    private static func findCascadeStart(in bytes: UnsafeRawBufferPointer, marker: Range<Int>, near expected: Int,
                                         within distance: Int) -> Int? {
        guard let base = bytes.baseAddress, !marker.isEmpty else { return nil }
        let low = max(marker.upperBound, expected - distance), high = min(bytes.count, expected + distance + marker.count)
        guard low < high else { return nil }
        let first = Int32(bytes[marker.lowerBound])
        var best: Int?
        var position = low
        while position + marker.count <= high, let hit = memchr(base + position, first, high - marker.count + 1 - position) {
            let offset = UnsafeRawPointer(hit) - base
            if memcmp(hit, base + marker.lowerBound, marker.count) == 0,
               best.map({ abs(offset - expected) < abs($0 - expected) }) ?? true {
                best = offset
            }
            position = offset + 1
        }
        return best
    }

    /// Reads one cascade: its tree count, then its trees. Returns the offset after the first
    /// tree's split count (for cascade 0: the end of the bytes every cascade starts with).
    @discardableResult
    mutating func readCascade(_ reader: inout DlibDeserializer, _ cascade: Int) throws -> Int {
        let integer = DlibDeserializer.minimumIntegerBytes
        let trees = try reader.readCount(max: 100_000, bytesEach: integer, what: "tree")
        if cascade == 0 { treesPerCascade = trees }
        guard trees == treesPerCascade, trees > 0 else {
            throw Failure.malformed("cascade \(cascade) has \(trees) trees, cascade 0 has \(treesPerCascade)")
        }
        var firstTreeBody = 0
        for tree in 0..<trees {
            try readTree(&reader, cascade, tree, splitCountEnd: &firstTreeBody)
        }
        return firstTreeBody
    }

    private mutating func readTree(_ reader: inout DlibDeserializer, _ cascade: Int, _ tree: Int,
                                   splitCountEnd: inout Int) throws {
        let integer = DlibDeserializer.minimumIntegerBytes, float = DlibDeserializer.minimumFloatBytes
        // A split is two indices and a float.
        let splitBytes = 2 * integer + float
        let splitCount = try reader.readCount(max: 1 << 16, bytesEach: splitBytes, what: "split")
        if tree == 0 { splitCountEnd = reader.offset }
        if cascade == 0 && tree == 0 {
            splitsPerTree = splitCount
            // Every tree of every cascade has as many splits as this one: all of them
            // must fit in what is left before they get room.
            try reader.requireRoom(for: [cascades, treesPerCascade, splitCount], bytesEach: splitBytes, what: "split")
            splits.reserveCapacity(cascades * treesPerCascade * splitCount)
        }
        guard splitCount == splitsPerTree else {
            throw Failure.malformed("tree \(tree) of cascade \(cascade) has \(splitCount) splits, expected \(splitsPerTree)")
        }
        for _ in 0..<splitCount {
            let i1 = try reader.readUnsigned(), i2 = try reader.readUnsigned()
            let threshold = try reader.readFloat()
            guard i1 <= UInt64(UInt16.max), i2 <= UInt64(UInt16.max) else {
                throw Failure.malformed("feature index \(max(i1, i2)) out of range")
            }
            splits.append(Split(feature1: UInt16(i1), feature2: UInt16(i2), threshold: Self.integerThreshold(threshold)))
        }
        // A leaf is a column vector: two dimensions, then `shapeSize` floats.
        let leafBytes = 2 * integer + shapeSize * float
        let leafCount = try reader.readCount(max: 1 << 17, bytesEach: leafBytes, what: "leaf")
        guard leafCount == splitCount + 1, leafCount & (leafCount - 1) == 0 else {
            throw Failure.malformed("tree with \(splitCount) splits has \(leafCount) leaves")
        }
        if cascade == 0 && tree == 0 {
            leavesPerTree = leafCount
            try reader.requireRoom(for: [cascades, treesPerCascade, leafCount], bytesEach: leafBytes, what: "leaf")
            leaves = LeafStorage(count: cascades * treesPerCascade * leafCount * shapeSize)
        }
        guard leafCount == leavesPerTree else {
            throw Failure.malformed("tree \(tree) of cascade \(cascade) has \(leafCount) leaves, expected \(leavesPerTree)")
        }
        var leafValues = ((cascade * treesPerCascade) + tree) * leafCount * shapeSize
        for _ in 0..<leafCount {
            let size = try reader.readColumnVectorSize(max: shapeSize)
            guard size == shapeSize else { throw Failure.malformed("leaf of \(size) values, shape has \(shapeSize)") }
            let end = leafValues + size
            while leafValues < end {
                leafValues += reader.readUsualFloats(into: leaves.base + leafValues, count: end - leafValues)
                // A value in another form, or a broken one: the general reader gives its value or error.
                if leafValues < end {
                    let value = try reader.readFloat()
                    guard value.isFinite else { throw Failure.malformed("non-finite leaf value at offset \(reader.offset)") }
                    leaves.base[leafValues] = value
                    leafValues += 1
                }
            }
        }
    }

    /// `d > t` for an integer pixel difference `d` equals `d > floor(t)`; NaN never goes left.
    private static func integerThreshold(_ t: Float) -> Int32 {
        if t.isNaN { return .max }
        return Int32(min(max(t.rounded(.down), -100_000), 100_000))
    }
}

/// The second thread's part of a two-thread read: cascades `firstCascade...` from `offset`,
/// into the shared leaf storage (a region the first thread does not write unless this part is
/// rejected, and then only after it has ended) and its own split list.
///
/// `@unchecked Sendable`: `run` (on the other thread) is the only writer of `result`, which the
/// reading thread reads only after the dispatch group's `wait`; `reader` is a copy of its own.
private final class SecondHalf: @unchecked Sendable {
    private var reader: ForestReader
    private let bytes: UnsafeRawBufferPointer
    private let offset: Int
    private let firstCascade: Int
    /// Where its reading ended and the splits it read; nil when it failed.
    private(set) var result: (end: Int, splits: [ShapePredictor.Split])?

    init(reader: ForestReader, bytes: UnsafeRawBufferPointer, offset: Int, firstCascade: Int) {
        self.reader = reader
        self.bytes = bytes
        self.offset = offset
        self.firstCascade = firstCascade
    }

    func run() {
        var input = DlibDeserializer(bytes, offset: offset)
        var part = reader
        part.splits = []
        do {
            for cascade in firstCascade..<part.cascades { try part.readCascade(&input, cascade) }
            result = (input.offset, part.splits)
        } catch {
            result = nil
        }
    }
}
