import FaceCore
import Imaging

/// Multi-scale face detection with a ``CascadeClassifier``: a Swift re-implementation of
/// OpenCV's `CascadeClassifier::detectMultiScale` (CPU path) that gives the same boxes on the
/// same pixels.
///
/// For each scale `factor = scaleFactor^k` whose window fits the image and the size limits,
/// the image is shrunk by `1/factor` (bilinear, bit-exact with `cv::resize INTER_LINEAR`),
/// its integral images are built, and every window position is scanned (step 2 px while
/// `factor < 2`, else 1 px; a column is skipped after a stage-0 rejection). Accepted windows
/// are mapped back, grouped with `groupRectangles(minNeighbors, 0.2)` and clipped to the image.
///
/// The detector owns its pyramid level, integral images and candidate lists and reuses them:
/// after the first frame of a given size, ``detect(_:into:)`` allocates nothing.
public struct CascadeDetector {
    public let classifier: CascadeClassifier
    public let settings: DetectorSettings

    /// OpenCV's `GROUP_EPS`.
    static let groupingEps = 0.2

    private var plan: ScanPlan?
    /// Pixels of the current pyramid level (sized for the largest level, used as a prefix).
    private var levelPixels: [UInt8] = []
    /// Two rows of horizontal sums for the resizer.
    private var resizeRows: [Int32] = []
    private var integral: IntegralImages
    private var candidates: [FaceBox] = []
    private var grouped: [FaceBox] = []
    private var grouping = RectangleGrouping()

    /// - Throws: ``DetectorSettingsError`` when the settings are unusable.
    public init(classifier: CascadeClassifier, settings: DetectorSettings = DetectorSettings()) throws {
        if let problem = settings.problem { throw DetectorSettingsError(message: problem) }
        self.classifier = classifier
        self.settings = settings
        integral = IntegralImages(includesSquares: classifier.featureType == .haar,
                                  includesTilted: classifier.hasTiltedFeatures)
    }

    /// Faces in `image`, as OpenCV's `detectMultiScale` would report them.
    public mutating func detect(_ image: GrayImage) -> [FaceBox] {
        var faces: [FaceBox] = []
        detect(image, into: &faces)
        return faces
    }

    /// Faces in `image`, written into `faces` (its storage is reused).
    public mutating func detect(_ image: GrayImage, into faces: inout [FaceBox]) {
        faces.removeAll(keepingCapacity: true)
        candidates.removeAll(keepingCapacity: true)
        guard !image.isEmpty else { return }
        if plan?.matches(width: image.width, height: image.height) != true {
            plan = ScanPlan(classifier: classifier, settings: settings, width: image.width, height: image.height)
            if let plan, let first = plan.levels.first {
                integral.reserve(maxWidth: first.width, maxHeight: first.height)
                levelPixels = [UInt8](repeating: 0, count: first.width * first.height)
                resizeRows = [Int32](repeating: 0, count: 2 * first.width)
                self.plan?.compile(classifier, stride: integral.stride, tiltedOffset: integral.tiltedOffset)
            }
        }
        guard let plan else { return }
        for index in plan.levels.indices {
            scanLevel(index, of: plan, image: image)
        }
        grouping.group(candidates, groupThreshold: settings.minNeighbors, eps: Self.groupingEps, into: &grouped)
        for box in grouped {
            let x0 = max(box.x, 0), y0 = max(box.y, 0)
            let x1 = min(box.x + box.width, image.width), y1 = min(box.y + box.height, image.height)
            if x1 > x0, y1 > y0 { faces.append(FaceBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)) }
        }
    }

    private mutating func scanLevel(_ index: Int, of plan: ScanPlan, image: GrayImage) {
        let info = plan.levels[index]
        image.pixels.withUnsafeBufferPointer { source in
            if info.width == image.width && info.height == image.height {
                integral.compute(source, width: info.width, height: info.height)
            } else {
                let count = info.width * info.height
                levelPixels.withUnsafeMutableBufferPointer { buffer in
                    let destination = UnsafeMutableBufferPointer(rebasing: buffer[0..<count])
                    resizeRows.withUnsafeMutableBufferPointer { rows in
                        info.resizer.resize(source, into: destination, rows: rows)
                    }
                    integral.compute(UnsafeBufferPointer(destination), width: info.width, height: info.height)
                }
            }
        }
        let winW = classifier.windowWidth, winH = classifier.windowHeight
        let stride = integral.stride
        let area = LevelScan(columns: info.width + 1 - winW, rows: info.height + 1 - winH,
                            step: info.scale >= 2 ? 1 : 2, stride: stride,
                            normRect: SumCorners(x: 1, y: 1, width: winW - 2, height: winH - 2, stride: stride),
                            normArea: Double((winW - 2) * (winH - 2)))
        let scale = info.scale
        let boxW = Int((Float(winW) * scale).rounded(.toNearestOrEven))
        let boxH = Int((Float(winH) * scale).rounded(.toNearestOrEven))
        var found: [FaceBox] = []
        swap(&found, &candidates)
        defer { swap(&found, &candidates) }
        integral.sums.withUnsafeBufferPointer { sums in
            integral.squares.withUnsafeBufferPointer { squares in
                func add(_ x: Int, _ y: Int) {
                    found.append(FaceBox(x: Int((Float(x) * scale).rounded(.toNearestOrEven)),
                                         y: Int((Float(y) * scale).rounded(.toNearestOrEven)),
                                         width: boxW, height: boxH))
                }
                switch plan.compiled {
                case .haar(let cascade):
                    cascade.scan(area, sums: sums.baseAddress!, squares: squares.baseAddress, accept: add)
                case .lbp(let cascade):
                    cascade.scan(area, sums: sums.baseAddress!, squares: nil, accept: add)
                case .none:
                    break
                }
            }
        }
    }
}

/// Thrown by ``CascadeDetector/init(classifier:settings:)`` for unusable settings.
public struct DetectorSettingsError: Error, CustomStringConvertible, Sendable {
    public let message: String
    public var description: String { "invalid detector settings: \(message)" }
}
