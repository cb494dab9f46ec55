import Foundation

/// The model's leaf vectors (about 16 M floats for the 68-point model) in one block of memory
/// aligned to 2 MiB and marked for transparent huge pages, so that a fit's thousands of
/// scattered leaf reads do not each cost a TLB miss. Written once while loading, then read-only.
///
/// A model loaded from a ``LandmarkModelCache`` copy keeps its leaves in the file's read-only
/// mapping instead (page cache, nothing converted or cleared).
///
/// `@unchecked Sendable` for its pointer: every field is a `let`, and the floats are written only
/// while the model is read (by the reader's threads, which end before the model is handed out).
final class LeafStorage: @unchecked Sendable {
    let count: Int
    let base: UnsafeMutablePointer<Float>
    /// The file mapping the leaves sit in (start and length), or nil for allocated leaves.
    let mapping: (start: UnsafeMutableRawPointer, length: Int)?
    /// A transparent huge page: the leaves' alignment, in memory and in a cached copy's file.
    static let hugePage = 2 << 20

    /// Allocates room for `count` floats, not initialised: the reader writes every one (each
    /// thread of a two-thread read first touches, and so gets the kernel to clear, its own pages).
    init(count: Int) {
        self.count = count
        let bytes = max(Self.hugePage, (count * MemoryLayout<Float>.stride + Self.hugePage - 1) / Self.hugePage * Self.hugePage)
        var raw: UnsafeMutableRawPointer?
        if posix_memalign(&raw, Self.hugePage, bytes) != 0 || raw == nil {
            raw = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        }
        #if os(Linux)
        _ = madvise(raw, bytes, MADV_HUGEPAGE)
        #endif
        base = raw!.bindMemory(to: Float.self, capacity: count)
        mapping = nil
    }

    /// The `count` floats at `leafOffset` of a read-only file mapping, which this storage now
    /// owns (unmapped with it). Nothing may write through `base`.
    init(mapping start: UnsafeMutableRawPointer, length: Int, leafOffset: Int, count: Int) {
        self.count = count
        base = (start + leafOffset).bindMemory(to: Float.self, capacity: count)
        mapping = (start, length)
    }

    deinit {
        if let mapping {
            munmap(mapping.start, mapping.length)
        } else {
            free(base)
        }
    }
}
