import DlibFormat
import Foundation
import Imaging

/// dlib's HOG face detector (`dlib.get_frontal_face_detector()`), parsed from a serialized
/// `object_detector<scan_fhog_pyramid<pyramid_down<6>>>` file and run detection for detection
/// as dlib runs it: fHOG features (31 per 8×8 cell) of every level of a 5/6 image pyramid, each
/// filter applied as dlib's separable parts, dlib's threshold, box mapping and non-maximum
/// suppression, and the Python API's `upsample` and `adjust_threshold`.
///
/// The model is immutable after loading and can be shared between threads; each thread passes
/// its own `HOGWorkspace` so that scanning frame after frame allocates nothing.
public final class FrontalFaceDetector: Sendable {
    /// Where the model came from.
    public let path: String
    /// fHOG cell size in pixels (8).
    public let cellSize: Int
    /// Filter size in cells (10 × 10 for the frontal model).
    public let filterWidth: Int
    public let filterHeight: Int
    /// Cells of padding around the detection window inside the filter (0).
    let padding: Int
    let maxPyramidLevels: Int
    let minLevelWidth: Int
    let minLevelHeight: Int
    /// dlib's `test_box_overlap` thresholds for non-maximum suppression.
    let overlap: BoxOverlap
    /// Per filter: its threshold and its separable parts, grouped by the plane they read.
    let thresholds: [Double]
    let filters: [[SeparableFilterGroup]]

    /// The number of filters (5 for the frontal model: front, left, right, rotated ±).
    public var detectorCount: Int { filters.count }
    /// The detection window in pixels at pyramid level 0 (80 × 80 for the frontal model).
    public var windowSize: (width: Int, height: Int) {
        ((filterWidth - 2 * padding) * cellSize, (filterHeight - 2 * padding) * cellSize)
    }

    /// The face detector model's kind, for loading and error messages.
    public static let modelKind = DlibModelKind(
        name: "face detector model", format: "dlib HOG face detector model",
        fix: "reinstall it with Scripts/setup-debian (it installs Models/dlib_frontal_face_detector.dat) or the facewatch Debian package")

    /// Loads a model; throws `DlibModelError` naming the path when it is missing or malformed.
    public convenience init(contentsOf path: String) throws {
        try self.init(serialized: Self.modelKind.contents(of: path), path: path)
    }

    /// Parses a model from the bytes of a `.dat` file; `path` is used in error messages.
    public init(serialized data: Data, path: String) throws {
        self.path = path
        let model = try Self.modelKind.parse(data, path: path) { try ParsedModel(parsing: $0) }
        cellSize = model.cellSize
        filterWidth = model.filterWidth
        filterHeight = model.filterHeight
        padding = model.padding
        maxPyramidLevels = model.maxPyramidLevels
        minLevelWidth = model.minLevelWidth
        minLevelHeight = model.minLevelHeight
        overlap = model.overlap
        thresholds = model.thresholds
        filters = model.weights.map { weights in
            let size = model.filterWidth * model.filterHeight
            return SeparableFilterGroup.grouping((0..<FHOG.planeCount).flatMap { plane in
                SeparableFilter.decompose(Array(weights[(plane * size)..<((plane + 1) * size)]),
                                          height: model.filterHeight, width: model.filterWidth, plane: plane)
            })
        }
        FHOG.prepareTables()
    }
}

/// The fields of the serialized model, checked.
private struct ParsedModel {
    var cellSize = 0, padding = 0, filterWidth = 0, filterHeight = 0
    var maxPyramidLevels = 0, minLevelWidth = 0, minLevelHeight = 0
    var overlap = BoxOverlap(iouThreshold: 0, coveredThreshold: 0)
    var thresholds: [Double] = []
    var weights: [[Double]] = []

    init(parsing bytes: UnsafeRawBufferPointer) throws {
        typealias Failure = DlibDeserializer.Failure
        var reader = DlibDeserializer(bytes)
        func small(_ what: String, _ range: ClosedRange<Int>) throws -> Int {
            let value = try reader.readSigned()
            guard value >= Int64(range.lowerBound), value <= Int64(range.upperBound) else {
                throw Failure.malformed("\(what) \(value) is outside \(range.lowerBound)...\(range.upperBound)")
            }
            return Int(value)
        }
        let version = try reader.readSigned()
        guard version == 2 else { throw Failure.malformed("object_detector version \(version) (expected 2)") }
        let scannerVersion = try reader.readSigned()
        guard scannerVersion == 1 else { throw Failure.malformed("scan_fhog_pyramid version \(scannerVersion) (expected 1)") }
        // The scanner's cached feature pyramid: dlib::array's max_size and size, both 0 when saved.
        guard try reader.readUnsigned() == 0, try reader.readUnsigned() == 0 else {
            throw Failure.malformed("the model holds a cached feature pyramid")
        }
        cellSize = try small("cell size", 2...64)
        padding = try small("padding", 0...64)
        let windowWidth = try small("window width", 1...4096)
        let windowHeight = try small("window height", 1...4096)
        maxPyramidLevels = try small("pyramid levels", 1...100_000)
        minLevelWidth = try small("minimum level width", 1...100_000)
        minLevelHeight = try small("minimum level height", 1...100_000)
        let nuclearNorm = try reader.readDouble()
        guard nuclearNorm.isFinite else { throw Failure.malformed("regularization strength is not finite") }
        // dlib's compute_fhog_window_size: the window in cells, grown by the padding.
        (filterWidth, filterHeight) = (Self.cells(windowWidth, cellSize) + 2 * padding,
                                       Self.cells(windowHeight, cellSize) + 2 * padding)
        guard filterWidth >= 1, filterHeight >= 1, filterWidth - 2 * padding >= 1, filterHeight - 2 * padding >= 1 else {
            throw Failure.malformed("detection window \(windowWidth)×\(windowHeight) is smaller than a cell")
        }
        let dimensions = filterWidth * filterHeight * FHOG.planeCount
        let storedDimensions = try reader.readSigned()
        guard storedDimensions == Int64(dimensions) else {
            throw Failure.malformed("\(storedDimensions) dimensions stored, \(dimensions) expected for a \(filterWidth)×\(filterHeight) fHOG filter")
        }
        let iou = try reader.readDouble(), covered = try reader.readDouble()
        guard (0...1).contains(iou), (0...1).contains(covered) else {
            throw Failure.malformed("overlap thresholds \(iou), \(covered) are outside 0...1")
        }
        overlap = BoxOverlap(iouThreshold: iou, coveredThreshold: covered)
        let count = try reader.readCount(max: 256, what: "detector")
        guard count > 0 else { throw Failure.malformed("the model has no detectors") }
        for _ in 0..<count {
            var w = try reader.readDoubleColumnVector(max: dimensions + 1)
            guard w.count == dimensions + 1 else {
                throw Failure.malformed("weight vector of \(w.count) values, expected \(dimensions + 1)")
            }
            guard w.allSatisfy(\.isFinite) else { throw Failure.malformed("weights are not finite") }
            thresholds.append(w.removeLast())
            weights.append(w)
        }
        guard reader.isAtEnd else { throw Failure.malformed("\(reader.remaining) bytes after the model") }
    }

    /// The width in cells of `centered_rect(0, 0, size)` mapped by dlib's `image_to_fhog`
    /// (integer division truncating toward zero, as C++ does).
    private static func cells(_ size: Int, _ cellSize: Int) -> Int {
        let left = -(size / 2), right = left + size - 1
        return ((right - 1) / cellSize - 1) - ((left - 1) / cellSize - 1) + 1
    }
}
