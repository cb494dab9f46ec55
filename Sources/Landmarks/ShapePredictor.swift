import DlibFormat
import Foundation
import Imaging

/// dlib's ensemble-of-regression-trees landmark model (Kazemi & Sullivan 2014), parsed once
/// from a serialized `shape_predictor` `.dat` file and used to fit a face shape in a box.
///
/// `fit` reproduces dlib's `shape_predictor::operator()` step for step (feature sampling,
/// tree traversal, float accumulation order), so given the same gray image and box it gives
/// dlib's points before dlib rounds them to integers. The model is immutable after loading and
/// can be shared between threads; each call uses only stack scratch space.
public final class ShapePredictor: Sendable {
    /// One split node: `feature[i1] − feature[i2] > threshold` goes left. Pixel features are
    /// integers, so dlib's float threshold `t` is stored as `floor(t)` with the same outcome.
    struct Split {
        var feature1: UInt16
        var feature2: UInt16
        var threshold: Int32
    }

    /// Where the model came from and its shape.
    public let path: String
    public let structure: ModelStructure

    /// Mean shape in the unit box, interleaved x, y (dlib's `initial_shape`).
    let initialShape: [Float]
    /// Per cascade × feature: anchor landmark and offset from it (dlib's `anchor_idx`, `deltas`).
    let anchors: [UInt16]
    let deltas: [SIMD2<Float>]
    /// Per cascade × tree × node.
    let splits: [Split]
    /// Per cascade × tree × leaf: `2 × landmarks` floats, contiguous.
    let leaves: LeafStorage
    /// Whether the model came from a ``LandmarkModelCache`` copy rather than its `.dat` file.
    public let fromCache: Bool

    /// The 68-point model's kind, for loading and error messages.
    public static let modelKind = DlibModelKind(
        name: "landmark model", format: "dlib shape_predictor model",
        fix: "the 68-point model comes with `apt-get install libdlib-data`")

    /// Loads a model; throws `DlibModelError` naming the path when it is missing or malformed.
    public convenience init(contentsOf path: String) throws {
        try self.init(serialized: Self.modelKind.contents(of: path), path: path)
    }

    /// Parses a model from the bytes of a `.dat` file; `path` is used in error messages.
    public convenience init(serialized data: Data, path: String) throws {
        try self.init(serialized: data, path: path, threads: ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1)
    }

    /// `threads`: 2 reads the second half of the trees on a second thread (``ForestReader``),
    /// with the same result.
    convenience init(serialized data: Data, path: String, threads: Int) throws {
        let parts = try Self.modelKind.parse(data, path: path) { try Self.parse($0, threads: threads) }
        self.init(path: path, parts: parts, fromCache: false)
    }

    init(path: String, parts: Parts, fromCache: Bool) {
        self.path = path
        (structure, initialShape, anchors, deltas, splits, leaves) = parts
        self.fromCache = fromCache
    }

    private static func parse(_ bytes: UnsafeRawBufferPointer, threads: Int) throws -> Parts {
        typealias Failure = DlibDeserializer.Failure
        let integer = DlibDeserializer.minimumIntegerBytes, float = DlibDeserializer.minimumFloatBytes
        var reader = DlibDeserializer(bytes)
        let version = try reader.readSigned()
        guard version == 1 else { throw Failure.malformed("unsupported version \(version) (expected 1)") }

        let shapeSize = try reader.readColumnVectorSize(max: 2 * Int(UInt16.max))
        guard shapeSize >= 4, shapeSize % 2 == 0 else { throw Failure.malformed("mean shape has \(shapeSize) values") }
        var initialShape = [Float](repeating: 0, count: shapeSize)
        for i in 0..<shapeSize { initialShape[i] = try reader.readFloat() }
        guard initialShape.allSatisfy(\.isFinite) else { throw Failure.malformed("mean shape is not finite") }
        let landmarks = shapeSize / 2

        let cascades = try reader.readCount(max: 1000, bytesEach: integer, what: "cascade")
        guard cascades > 0 else { throw Failure.malformed("model has no cascades") }
        var forests = ForestReader(cascades: cascades, shapeSize: shapeSize)
        try forests.read(&reader, bytes: bytes, threads: threads)
        let splits = forests.splits, leaves = forests.leaves

        var featuresPerCascade = 0
        var anchors: [UInt16] = []
        let anchorCascades = try reader.readCount(max: 1000, bytesEach: integer, what: "anchor cascade")
        guard anchorCascades == cascades else {
            throw Failure.malformed("\(anchorCascades) anchor lists for \(cascades) cascades")
        }
        for cascade in 0..<cascades {
            let count = try reader.readCount(max: Int(UInt16.max) + 1, bytesEach: integer, what: "feature")
            if cascade == 0 { featuresPerCascade = count }
            guard count == featuresPerCascade, count > 0 else {
                throw Failure.malformed("cascade \(cascade) has \(count) features, cascade 0 has \(featuresPerCascade)")
            }
            for _ in 0..<count {
                let anchor = try reader.readUnsigned()
                guard anchor < UInt64(landmarks) else { throw Failure.malformed("anchor landmark \(anchor) out of range") }
                anchors.append(UInt16(anchor))
            }
        }
        var deltas: [SIMD2<Float>] = []
        deltas.reserveCapacity(anchors.count)
        let deltaCascades = try reader.readCount(max: 1000, bytesEach: integer, what: "offset cascade")
        guard deltaCascades == cascades else { throw Failure.malformed("\(deltaCascades) offset lists for \(cascades) cascades") }
        for cascade in 0..<cascades {
            let count = try reader.readCount(max: Int(UInt16.max) + 1, bytesEach: 2 * float, what: "offset")
            guard count == featuresPerCascade else {
                throw Failure.malformed("cascade \(cascade) has \(count) offsets for \(featuresPerCascade) features")
            }
            for _ in 0..<count {
                let x = try reader.readFloat(), y = try reader.readFloat()
                deltas.append(SIMD2(x, y))
            }
        }
        guard Self.featuresInRange(splits, featuresPerCascade: featuresPerCascade) else {
            throw Failure.malformed("a split refers to a feature beyond the \(featuresPerCascade) per cascade")
        }
        guard deltas.allSatisfy({ $0.x.isFinite && $0.y.isFinite }) else {
            throw Failure.malformed("model holds non-finite values")
        }
        var spread: Float = 0
        for i in 0..<landmarks {
            spread += abs(initialShape[2 * i] - initialShape[0]) + abs(initialShape[2 * i + 1] - initialShape[1])
        }
        guard spread > 0 else { throw Failure.malformed("mean shape is degenerate") }
        if !reader.isAtEnd {
            throw Failure.malformed("\(bytes.count - reader.offset) unexpected bytes after the model")
        }
        let structure = ModelStructure(cascades: cascades, treesPerCascade: forests.treesPerCascade, leavesPerTree: forests.leavesPerTree,
                                       featuresPerCascade: featuresPerCascade, landmarks: landmarks)
        return (structure, initialShape, anchors, deltas, splits, leaves)
    }

    /// Whether every split compares two of the `featuresPerCascade` pixel features a level samples
    /// (the fit indexes its feature values with them).
    static func featuresInRange(_ splits: [Split], featuresPerCascade: Int) -> Bool {
        splits.allSatisfy { Int($0.feature1) < featuresPerCascade && Int($0.feature2) < featuresPerCascade }
    }
}
