import CLandmarkKernels
import FaceCore
import Foundation
import FuzzSupport
import Imaging
import Landmarks

/// libFuzzer target: the reader of the landmark model's ready-to-map copy
/// (`ShapePredictor.init(contentsOf:cache:)`), with hostile copies that pass the checksum.
///
/// A random file would almost never get past the copy's checksum, so the input is a patch: its
/// first byte holds flags, and the rest is XORed over the start of a valid copy of a tiny model
/// (header, shape, anchors, offsets and splits; the leaves start at 2 MiB). With flag bit 0 set
/// the checksum is then recomputed, so the counts and indices themselves are what the reader
/// must refuse. An accepted copy is used for a fit, which must stay inside its arrays.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLandmarkCache(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = FuzzInput.data(start, count)
    guard let flags = input.first else { return 0 }
    let setup = CacheSetup.shared
    var copy = setup.pristineCopy
    copy.withUnsafeMutableBytes { file in
        for (offset, byte) in input.dropFirst().enumerated() where offset < file.count {
            file[offset] ^= byte
        }
        if flags & 1 != 0 {
            // The copy's header (`CachedModelHeader`): 16 little-endian words, the checksum of
            // everything after them in word 12.
            let checksum = landmarks_checksum(file.baseAddress! + CacheSetup.headerBytes, file.count - CacheSetup.headerBytes)
            file.storeBytes(of: checksum.littleEndian, toByteOffset: 12 * 8, as: UInt64.self)
        }
    }
    guard FileManager.default.createFile(atPath: setup.copyFile, contents: Data(copy)) else { return 0 }
    guard let predictor = try? ShapePredictor(contentsOf: setup.modelFile, cache: setup.cache) else { return 0 }
    var shape = FaceShape(points: [])
    predictor.fit(setup.image, box: FaceBox(x: 8, y: 8, width: 48, height: 48), into: &shape)
    return 0
}

/// The tiny model, its folder of copies and its valid copy, made once per process in a folder of
/// its own under the temporary directory (folders of fuzzers that have ended are removed).
private struct CacheSetup {
    static let headerBytes = 16 * 8
    static let shared = CacheSetup()

    /// dlib's serialization of a 4-point model with one cascade of one tree (one split, two
    /// leaves) and two features: `seed-tiny-model.dat` of Scripts/make_fuzz_corpus.py.
    private static let tinyModel: [UInt8] = [
        0x01, 0x01, 0x81, 0x08, 0x81, 0x01, 0x01, 0x66, 0x81, 0x0a, 0x01, 0x66, 0x81, 0x0a, 0x02, 0x99, 0x03, 0x81, 0x0a, 0x01,
        0x66, 0x81, 0x0a, 0x02, 0x00, 0x02, 0x81, 0x0a, 0x02, 0x00, 0x02, 0x81, 0x0a, 0x02, 0x00, 0x02, 0x81, 0x0a, 0x02, 0x99,
        0x03, 0x81, 0x0a, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x00, 0x01, 0x01, 0x02, 0x00, 0x0c, 0x81, 0x0a, 0x01, 0x02,
        0x81, 0x08, 0x81, 0x01, 0x01, 0x0a, 0x81, 0x0a, 0x01, 0x0a, 0x81, 0x0a, 0x01, 0x0a, 0x81, 0x0a, 0x01, 0x0a, 0x81, 0x0a,
        0x01, 0x0a, 0x81, 0x0a, 0x01, 0x0a, 0x81, 0x0a, 0x01, 0x0a, 0x81, 0x0a, 0x01, 0x0a, 0x81, 0x0a, 0x81, 0x08, 0x81, 0x01,
        0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a,
        0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x81, 0x0a, 0x01, 0x01, 0x01, 0x02, 0x01, 0x00, 0x01, 0x03,
        0x01, 0x01, 0x01, 0x02, 0x01, 0x66, 0x81, 0x0a, 0x01, 0xcc, 0x81, 0x0a, 0x81, 0x66, 0x81, 0x0a, 0x01, 0x33, 0x81, 0x0a,
    ]
    private static let folderPrefix = "facewatch-fuzz-landmark-cache-"

    let modelFile: String
    let cache: LandmarkModelCache
    let copyFile: String
    /// Bytes, not `Data`: LeakSanitizer does not see a `Data` held by a static as reachable.
    let pristineCopy: [UInt8]
    /// A 64×64 gradient the accepted copies' fits read.
    let image = GrayImage(width: 64, height: 64, pixels: (0..<4096).map { UInt8(truncatingIfNeeded: $0 % 64 * 3 + $0 / 64) })

    private init() {
        let temporary = NSTemporaryDirectory()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for entry in entries where entry.hasPrefix(Self.folderPrefix) {
            if let pid = Int32(entry.dropFirst(Self.folderPrefix.count)), kill(pid, 0) != 0, errno == ESRCH {
                try? FileManager.default.removeItem(atPath: temporary + "/" + entry)
            }
        }
        let folder = temporary + "/" + Self.folderPrefix + String(getpid())
        modelFile = folder + "/tiny.dat"
        cache = LandmarkModelCache(directory: folder + "/copies")
        copyFile = cache.file(for: modelFile)
        guard (try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)) != nil,
              FileManager.default.createFile(atPath: modelFile, contents: Data(Self.tinyModel)),
              (try? ShapePredictor(contentsOf: modelFile, cache: cache)) != nil,
              let copy = FileManager.default.contents(atPath: copyFile)
        else { fatalError("FuzzLandmarkCache: cannot make the tiny model's copy in \(folder)") }
        pristineCopy = [UInt8](copy)
    }
}

@main enum FuzzLandmarkCacheMain {
    static func main() { FuzzInput.main(target: fuzzLandmarkCache) }
}
