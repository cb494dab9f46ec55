import Foundation

/// The fixed-size start of a cached model file: what it was made from and the model's shape.
struct CachedModelHeader: Equatable {
    static let magic = UInt64(littleEndian: 0x4C45_444F_4D57_4600)  // "\0FWMODEL" read as a little-endian word
    static let version: UInt64 = 1
    static let words = 16
    static let bytes = words * 8
    /// The leaves start at a 2 MiB boundary of the file, mapped at a 2 MiB boundary of memory:
    /// with the page cache's large folios (ext4, XFS, tmpfs on recent kernels) and `MADV_HUGEPAGE`
    /// the kernel maps them with 2 MiB pages, and the fit's scattered leaf reads do not each cost
    /// a TLB miss (4 KiB pages made the fit 3–14 % slower on the development VM).
    static let leafAlignment = LeafStorage.hugePage

    var source: SourceIdentity
    var structure: ModelStructure
    var checksum: UInt64

    /// Device, inode, size and modification time of the model file.
    struct SourceIdentity: Equatable {
        var device: UInt64
        var inode: UInt64
        var size: UInt64
        var seconds: UInt64
        var nanoseconds: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
            size = UInt64(truncatingIfNeeded: info.st_size)
            seconds = UInt64(truncatingIfNeeded: info.st_mtim.tv_sec)
            nanoseconds = UInt64(truncatingIfNeeded: info.st_mtim.tv_nsec)
        }

        init(words: UnsafePointer<UInt64>) {
            (device, inode, size, seconds, nanoseconds) = (words[0], words[1], words[2], words[3], words[4])
        }
    }

    /// Fills `words` (``words`` of them) with this header.
    func write(to words: inout [UInt64]) {
        let s = structure
        let values: [UInt64] = [Self.magic, Self.version, source.device, source.inode, source.size, source.seconds,
                                source.nanoseconds, UInt64(s.cascades), UInt64(s.treesPerCascade), UInt64(s.leavesPerTree),
                                UInt64(s.featuresPerCascade), UInt64(s.landmarks), checksum]
        words = values + [UInt64](repeating: 0, count: Self.words - values.count)
    }

    /// Reads a header; nil when the magic or version is not this one's or a count is out of range.
    init?(words: UnsafePointer<UInt64>) {
        guard words[0] == Self.magic, words[1] == Self.version else { return nil }
        source = SourceIdentity(words: words + 2)
        let counts = (7...11).map { words[$0] }
        guard counts.allSatisfy({ $0 > 0 && $0 <= 1 << 20 }) else { return nil }
        structure = ModelStructure(cascades: Int(counts[0]), treesPerCascade: Int(counts[1]), leavesPerTree: Int(counts[2]),
                                   featuresPerCascade: Int(counts[3]), landmarks: Int(counts[4]))
        checksum = words[12]
    }

    init(source: SourceIdentity, structure: ModelStructure, checksum: UInt64) {
        self.source = source
        self.structure = structure
        self.checksum = checksum
    }
}
