import CLandmarkKernels
import Foundation

extension ShapePredictor {
    /// Loads a model through `cache`: from its ready-to-map copy when the copy is the model's,
    /// otherwise from the `.dat` file (throwing `DlibModelError` as ``init(contentsOf:)`` does),
    /// then writing the copy for the next start. With `cache` nil this is ``init(contentsOf:)``.
    public convenience init(contentsOf path: String, cache: LandmarkModelCache?) throws {
        if let cache, let parts = Self.mappedParts(cache.file(for: path), source: path) {
            self.init(path: path, parts: parts, fromCache: true)
            return
        }
        // The model file as it was before the read: if it is replaced meanwhile, the copy names
        // the old file and the next start reads the new one.
        let source = CachedModelHeader.SourceIdentity(path: path)
        try self.init(contentsOf: path)
        if let cache, let source { store(in: cache, source: source) }
    }

    /// Writes this model's copy into `cache` (creating the folder), naming `source` (the model
    /// file as it was when read); false when it could not (the folder or file cannot be made, the
    /// disk is full): then there is no copy, and no partial one.
    @discardableResult
    func store(in cache: LandmarkModelCache, source: CachedModelHeader.SourceIdentity) -> Bool {
        guard let layout = CachedModelLayout(structure),
              (try? FileManager.default.createDirectory(atPath: cache.directory, withIntermediateDirectories: true)) != nil
        else { return false }
        let target = cache.file(for: path)
        let temporary = target + ".\(getpid()).tmp"
        cache.removeAbandonedTemporaryFiles(of: target)
        let fd = open(temporary, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        // Plain writes, not a writable mapping: a full disk is then an error, not a SIGBUS.
        func put(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
            var done = 0
            while done < bytes.count {
                let n = pwrite(fd, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
                if n < 0, errno == EINTR { continue }
                guard n > 0 else { return false }
                done += n
            }
            return true
        }
        let header = [UInt64](repeating: 0, count: CachedModelHeader.words)
        let body = header.withUnsafeBytes { put($0, at: 0) }
            && initialShape.withUnsafeBytes { put($0, at: layout.initialShape.lowerBound) }
            && anchors.withUnsafeBytes { put($0, at: layout.anchors.lowerBound) }
            && deltas.withUnsafeBytes { put($0, at: layout.deltas.lowerBound) }
            && splits.withUnsafeBytes { put($0, at: layout.splits.lowerBound) }
            && put(UnsafeRawBufferPointer(start: leaves.base, count: layout.leaves.count), at: layout.leaves.lowerBound)
        // The checksum is taken over the file as written (its gaps read as zeros).
        guard body, let mapped = mmap(nil, layout.fileSize, PROT_READ, MAP_SHARED, fd, 0), mapped != MAP_FAILED else {
            unlink(temporary)
            return false
        }
        let checksum = landmarks_checksum(mapped + CachedModelHeader.bytes, layout.fileSize - CachedModelHeader.bytes)
        munmap(mapped, layout.fileSize)
        var words = header
        CachedModelHeader(source: source, structure: structure, checksum: checksum).write(to: &words)
        guard words.withUnsafeBytes({ put($0, at: 0) }), rename(temporary, target) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    // swiftlint:disable:next large_tuple
    typealias Parts = (ModelStructure, [Float], [UInt16], [SIMD2<Float>], [Split], LeafStorage)

    /// The model's parts from the copy at `file`, its leaves left in the mapping; nil when there
    /// is no copy or it is not `source`'s (see ``LandmarkModelCache``).
    ///
    /// `hugeFraction`: the part of the leaves that must be mapped by 2 MiB pages for the leaves to
    /// stay in the mapping (tests set it above 1 to take the copying path).
    static func mappedParts(_ file: String, source: String, hugeFraction: Double = 0.9) -> Parts? {
        guard let identity = CachedModelHeader.SourceIdentity(path: source) else { return nil }
        let fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK)  // a FIFO in its place must not block the start
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_size >= CachedModelHeader.bytes else { return nil }
        let size = Int(info.st_size)
        guard let mapped = mapAligned(fd, size) else { return nil }
        var keep = false
        defer { if !keep { munmap(mapped, size) } }
        guard let header = CachedModelHeader(words: mapped.assumingMemoryBound(to: UInt64.self)), header.source == identity,
              let layout = CachedModelLayout(header.structure), layout.fileSize == size,
              landmarks_checksum(mapped + CachedModelHeader.bytes, size - CachedModelHeader.bytes) == header.checksum
        else { return nil }
        let s = header.structure
        func array<T>(_ range: Range<Int>, of _: T.Type) -> [T] {
            let count = range.count / MemoryLayout<T>.stride
            return [T](UnsafeBufferPointer(start: (mapped + range.lowerBound).assumingMemoryBound(to: T.self), count: count))
        }
        let initialShape = array(layout.initialShape, of: Float.self)
        let anchors = array(layout.anchors, of: UInt16.self)
        let deltas = array(layout.deltas, of: SIMD2<Float>.self)
        let splits = array(layout.splits, of: Split.self)
        // The fit indexes with these: a copy that passed its checksum was written from a checked
        // model, but the indices are checked again so that no file can make a fit read out of bounds.
        guard anchors.allSatisfy({ Int($0) < s.landmarks }),
              featuresInRange(splits, featuresPerCascade: s.featuresPerCascade)
        else { return nil }
        let count = layout.leaves.count / MemoryLayout<Float>.stride
        // Leaves in 4 KiB pages make the fit 3–14 % slower (a TLB miss a leaf): where the page
        // cache could not give the mapping 2 MiB pages for nearly all of them (older kernels,
        // small folios), they are copied into anonymous huge-page memory instead, as the `.dat`
        // reading puts them; that still skips the reading and conversion.
        if Double(Self.hugeMappedBytes(at: mapped)) >= hugeFraction * Double(layout.leaves.count) {
            keep = true
            return (s, initialShape, anchors, deltas, splits,
                    LeafStorage(mapping: mapped, length: size, leafOffset: layout.leaves.lowerBound, count: count))
        }
        let leaves = LeafStorage(count: count)
        leaves.base.update(from: (mapped + layout.leaves.lowerBound).assumingMemoryBound(to: Float.self), count: count)
        return (s, initialShape, anchors, deltas, splits, leaves)
    }

    /// How many bytes of the file mapping that starts at `start` the kernel maps with 2 MiB pages.
    static func hugeMappedBytes(at start: UnsafeRawPointer) -> Int {
        smapsBytes("FilePmdMapped", ofMappingAt: start)
    }

    /// A `kB` field of the mapping that starts at `start` in `/proc/self/smaps`, in bytes; 0 when
    /// it cannot be read.
    static func smapsBytes(_ field: String, ofMappingAt start: UnsafeRawPointer) -> Int {
        // Read to the end: /proc files report a size of 0, and some readers stop at the first page.
        guard let handle = FileHandle(forReadingAtPath: "/proc/self/smaps"),
              let data = try? handle.readToEnd(), let smaps = String(data: data, encoding: .utf8) else { return 0 }
        let prefix = String(UInt(bitPattern: start), radix: 16) + "-", name = field + ":"
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard let first = fields.first else { continue }
            if !first.hasSuffix(":") {  // a mapping's first line: "start-end perms offset dev inode path"
                if inMapping { return 0 }
                inMapping = first.hasPrefix(prefix)
            } else if inMapping, first == name, fields.count > 1 {
                return (Int(fields[1]) ?? 0) * 1024
            }
        }
        return 0
    }

    /// Maps `size` bytes of `fd` read-only at a 2 MiB-aligned address, so that the leaves (at a
    /// 2 MiB offset of the file) can be mapped by huge pages where the page cache holds them so.
    private static func mapAligned(_ fd: Int32, _ size: Int) -> UnsafeMutableRawPointer? {
        let huge = CachedModelHeader.leafAlignment
        guard let reserved = mmap(nil, size + huge, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0),
              reserved != MAP_FAILED else { return nil }
        let start = (Int(bitPattern: reserved) + huge - 1) / huge * huge
        let aligned = UnsafeMutableRawPointer(bitPattern: start)!
        let head = start - Int(bitPattern: reserved)
        guard let mapped = mmap(aligned, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0), mapped == aligned else {
            munmap(reserved, size + huge)
            return nil
        }
        if head > 0 { munmap(reserved, head) }
        munmap(aligned + size, huge - head)
        _ = madvise(aligned, size, MADV_HUGEPAGE)
        _ = madvise(aligned, size, MADV_POPULATE_READ)  // all at once, not a fault a page (Linux 5.14; else lazily)
        return aligned
    }
}
