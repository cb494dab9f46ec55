import Foundation

/// A boosted cascade of Haar or LBP weak classifiers read from OpenCV's XML format
/// (`<cascade>` inside `<opencv_storage>`, as written by `opencv_traincascade` and installed by
/// Debian's opencv-data package).
///
/// The model is parsed once and kept in flat arrays; a ``CascadeDetector`` compiles it for the
/// frame size it scans. Values are read the way OpenCV reads them: numbers as `double`, then
/// narrowed to `float`; each stage threshold is lowered by `1e-5`.
public struct CascadeClassifier: Sendable {
    /// The kind of features the cascade's weak classifiers test.
    public enum FeatureType: String, Sendable {
        /// Haar-like rectangle features (ordered, compared with a threshold), maybe tilted 45°.
        case haar = "HAAR"
        /// Local binary patterns over 3×3 blocks (categorical, looked up in a 256-bit subset).
        case lbp = "LBP"
    }

    /// One boosting stage: weak classifiers `firstTree ..< firstTree + treeCount`.
    struct Stage: Sendable {
        var firstTree: Int
        var treeCount: Int
        var threshold: Float
    }

    /// One weak classifier: nodes `firstNode ..< firstNode + nodeCount` and
    /// `nodeCount + 1` leaves from `firstLeaf`.
    struct Tree: Sendable {
        var firstNode: Int
        var nodeCount: Int
        var firstLeaf: Int
    }

    /// A split node. Children `> 0` are node indices within the tree, `<= 0` are leaf `-child`.
    struct Node: Sendable {
        var feature: Int
        var threshold: Float
        var left: Int
        var right: Int
    }

    /// A rectangle in window coordinates with its weight (Haar) or block size (LBP).
    struct Rect: Sendable, Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
        var weight: Float
    }

    /// The file the cascade was read from.
    public let path: String
    public let featureType: FeatureType
    /// Detection window size the cascade was trained at, in pixels.
    public let windowWidth: Int
    public let windowHeight: Int

    let stages: [Stage]
    let trees: [Tree]
    let nodes: [Node]
    let leaves: [Float]
    /// LBP only: 8 words (256 bits) per node, `nodes.count * 8` in all.
    let subsets: [UInt32]
    /// Haar: up to 3 rectangles per feature (unused ones have weight 0). LBP: 1 per feature.
    let featureRects: [Rect]
    /// Haar only: whether each feature uses the 45° tilted integral.
    let tilted: [Bool]

    /// Number of stages.
    public var stageCount: Int { stages.count }
    /// Number of distinct features.
    public var featureCount: Int { tilted.isEmpty ? featureRects.count : tilted.count }
    /// Number of weak classifiers over all stages.
    public var weakClassifierCount: Int { trees.count }
    /// True when every weak classifier is a single split (a "stump").
    public var isStumpBased: Bool { trees.allSatisfy { $0.nodeCount == 1 } }
    /// True when some Haar feature uses the tilted integral image.
    public var hasTiltedFeatures: Bool { tilted.contains(true) }

    /// Reads a cascade file.
    /// - Throws: ``CascadeError`` naming the file and the problem.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let exists = FileManager.default.fileExists(atPath: path)
            throw CascadeError(path: path, reason: exists ? "the file cannot be read" : "no such file")
        }
        try self.init(xml: [UInt8](data), path: path)
    }

    /// Parses cascade XML; `path` is only used in error messages.
    /// - Throws: ``CascadeError`` naming `path` and the problem.
    public init(xml: [UInt8], path: String) throws {
        let root: MarkupElement
        do {
            root = try MarkupElement.parseDocument(xml)
        } catch let error as MarkupElement.SyntaxError {
            throw CascadeError(path: path, reason: "malformed XML at line \(error.line): \(error.message)")
        }
        var reader = Reader(path: path)
        let parsed = try reader.read(root)
        self.path = path
        featureType = parsed.featureType
        windowWidth = parsed.windowWidth
        windowHeight = parsed.windowHeight
        stages = parsed.stages
        trees = parsed.trees
        nodes = parsed.nodes
        leaves = parsed.leaves
        subsets = parsed.subsets
        featureRects = parsed.featureRects
        tilted = parsed.tilted
    }
}

extension CascadeClassifier {
    /// The parsed fields, filled in by ``Reader``.
    private struct Parsed {
        var featureType = FeatureType.haar
        var windowWidth = 0
        var windowHeight = 0
        var stages: [Stage] = []
        var trees: [Tree] = []
        var nodes: [Node] = []
        var leaves: [Float] = []
        var subsets: [UInt32] = []
        var featureRects: [Rect] = []
        var tilted: [Bool] = []
    }

    /// Turns the XML tree into flat arrays, checking every index on the way.
    private struct Reader {
        let path: String

        func fail(_ reason: String) -> CascadeError {
            CascadeError(path: path, reason: reason)
        }

        func element(_ parent: MarkupElement, _ name: String, in context: String) throws -> MarkupElement {
            guard let child = parent.child(name) else { throw fail("<\(context)> has no <\(name)>") }
            return child
        }

        func integer(_ word: Substring, in context: String) throws -> Int {
            if let value = Int(word) { return value }
            if let value = Double(word), value == value.rounded(), abs(value) < 1e15 { return Int(value) }
            throw fail("\"\(word)\" in <\(context)> is not an integer")
        }

        /// A rectangle coordinate or size: bounded by the largest window (4096) before any
        /// arithmetic, so sums and products of them cannot overflow.
        func coordinate(_ word: Substring, in context: String) throws -> Int {
            let value = try integer(word, in: context)
            guard (-4096...4096).contains(value) else {
                throw fail("rectangle value \(value) in <\(context)> is outside any detection window")
            }
            return value
        }

        /// OpenCV reads reals as `double` and narrows them to `float`.
        func real(_ word: Substring, in context: String) throws -> Float {
            guard let value = Double(word), value.isFinite else {
                throw fail("\"\(word)\" in <\(context)> is not a number")
            }
            return Float(value)
        }

        func integer(_ parent: MarkupElement, _ name: String, in context: String) throws -> Int {
            let words = try element(parent, name, in: context).words
            guard words.count == 1 else { throw fail("<\(name)> should hold one integer") }
            return try integer(words[0], in: name)
        }

        mutating func read(_ root: MarkupElement) throws -> Parsed {
            guard root.name == "opencv_storage" else {
                throw fail("the root element is <\(root.name)>, not <opencv_storage>: not an OpenCV cascade file")
            }
            guard let cascade = root.children.first else {
                throw fail("<opencv_storage> is empty: not an OpenCV cascade file")
            }
            if cascade.attributes["type_id"] == "opencv-haar-classifier" {
                throw fail("<\(cascade.name)> is in the old (pre-2.0) Haar format, which is not supported; "
                    + "use a new-format cascade such as haarcascade_frontalface_default.xml")
            }
            guard cascade.name == "cascade" else {
                throw fail("the first element in <opencv_storage> is <\(cascade.name)>, not <cascade>: not an OpenCV cascade file")
            }
            if let type = cascade.attributes["type_id"], type != "opencv-cascade-classifier" {
                throw fail("<cascade> has type_id \"\(type)\", expected \"opencv-cascade-classifier\"")
            }
            var parsed = Parsed()
            let stageType = try element(cascade, "stageType", in: "cascade").trimmedText
            guard stageType == "BOOST" else { throw fail("stageType \"\(stageType)\" is not supported (only BOOST)") }
            let featureType = try element(cascade, "featureType", in: "cascade").trimmedText
            guard let type = FeatureType(rawValue: String(featureType)) else {
                throw fail("featureType \"\(featureType)\" is not supported (HAAR or LBP)")
            }
            parsed.featureType = type
            parsed.windowWidth = try integer(cascade, "width", in: "cascade")
            parsed.windowHeight = try integer(cascade, "height", in: "cascade")
            guard (1...4096).contains(parsed.windowWidth), (1...4096).contains(parsed.windowHeight) else {
                throw fail("window size \(parsed.windowWidth)x\(parsed.windowHeight) is not valid")
            }
            let featureParams = try element(cascade, "featureParams", in: "cascade")
            let categories = try integer(featureParams, "maxCatCount", in: "featureParams")
            switch type {
            case .haar where categories != 0:
                throw fail("a HAAR cascade must have maxCatCount 0, found \(categories)")
            case .lbp where categories != 256:
                throw fail("an LBP cascade must have maxCatCount 256, found \(categories)")
            default:
                break
            }
            let featureElements = try element(cascade, "features", in: "cascade").children
            guard !featureElements.isEmpty else { throw fail("<features> is empty") }
            try readFeatures(featureElements, into: &parsed)
            let stageElements = try element(cascade, "stages", in: "cascade").children
            guard !stageElements.isEmpty else { throw fail("<stages> is empty") }
            if let declared = cascade.child("stageNum"), let count = Int(declared.trimmedText), count != stageElements.count {
                throw fail("stageNum says \(count) stages but <stages> holds \(stageElements.count) (truncated file?)")
            }
            for (index, stage) in stageElements.enumerated() {
                try readStage(stage, index: index, featureCount: featureElements.count, into: &parsed)
            }
            return parsed
        }

        func readFeatures(_ elements: [MarkupElement], into parsed: inout Parsed) throws {
            let width = parsed.windowWidth, height = parsed.windowHeight
            for (index, feature) in elements.enumerated() {
                let context = "features/_[\(index)]"
                switch parsed.featureType {
                case .haar:
                    let rects = try element(feature, "rects", in: context).children
                    guard (1...3).contains(rects.count) else {
                        throw fail("Haar feature \(index) has \(rects.count) rectangles (1 to 3 expected)")
                    }
                    let isTilted = try feature.child("tilted").map { try integer($0.trimmedText, in: "tilted") != 0 } ?? false
                    for slot in 0..<3 {
                        guard slot < rects.count else {
                            parsed.featureRects.append(Rect(x: 0, y: 0, width: 0, height: 0, weight: 0))
                            continue
                        }
                        let words = rects[slot].words
                        guard words.count == 5 else { throw fail("a rectangle of Haar feature \(index) does not have 5 numbers") }
                        let rect = Rect(x: try coordinate(words[0], in: context), y: try coordinate(words[1], in: context),
                                        width: try coordinate(words[2], in: context), height: try coordinate(words[3], in: context),
                                        weight: try real(words[4], in: context))
                        let inside = isTilted
                            ? rect.x - rect.height >= 0 && rect.y >= 0 && rect.x + rect.width <= width
                                && rect.y + rect.width + rect.height <= height
                            : rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= width && rect.y + rect.height <= height
                        guard rect.width >= 0, rect.height >= 0, inside else {
                            throw fail("a rectangle of Haar feature \(index) lies outside the \(width)x\(height) window")
                        }
                        parsed.featureRects.append(rect)
                    }
                    parsed.tilted.append(isTilted)
                case .lbp:
                    let words = try element(feature, "rect", in: context).words
                    guard words.count == 4 else { throw fail("LBP feature \(index) does not have 4 numbers") }
                    let rect = Rect(x: try coordinate(words[0], in: context), y: try coordinate(words[1], in: context),
                                    width: try coordinate(words[2], in: context), height: try coordinate(words[3], in: context),
                                    weight: 0)
                    guard rect.x >= 0, rect.y >= 0, rect.width > 0, rect.height > 0,
                          rect.x + 3 * rect.width <= width, rect.y + 3 * rect.height <= height else {
                        throw fail("LBP feature \(index) lies outside the \(width)x\(height) window")
                    }
                    parsed.featureRects.append(rect)
                }
            }
        }

        func readStage(_ stage: MarkupElement, index: Int, featureCount: Int, into parsed: inout Parsed) throws {
            let context = "stages/_[\(index)]"
            let thresholdWords = try element(stage, "stageThreshold", in: context).words
            guard thresholdWords.count == 1 else { throw fail("<stageThreshold> of stage \(index) should hold one number") }
            let threshold = try real(thresholdWords[0], in: "stageThreshold") - Float(1e-5)
            let weak = try element(stage, "weakClassifiers", in: context).children
            guard !weak.isEmpty else { throw fail("stage \(index) has no weak classifiers") }
            parsed.stages.append(Stage(firstTree: parsed.trees.count, treeCount: weak.count, threshold: threshold))
            let isLBP = parsed.featureType == .lbp
            let nodeStep = isLBP ? 3 + 8 : 4
            for (treeIndex, tree) in weak.enumerated() {
                let treeContext = "\(context)/weakClassifiers/_[\(treeIndex)]"
                let words = try element(tree, "internalNodes", in: treeContext).words
                let leafWords = try element(tree, "leafValues", in: treeContext).words
                guard !words.isEmpty, words.count % nodeStep == 0 else {
                    throw fail("<internalNodes> of \(treeContext) has \(words.count) numbers, not a multiple of \(nodeStep)")
                }
                let nodeCount = words.count / nodeStep
                guard leafWords.count == nodeCount + 1 else {
                    throw fail("\(treeContext) has \(nodeCount) nodes but \(leafWords.count) leaves (expected \(nodeCount + 1))")
                }
                parsed.trees.append(Tree(firstNode: parsed.nodes.count, nodeCount: nodeCount, firstLeaf: parsed.leaves.count))
                for n in 0..<nodeCount {
                    let base = n * nodeStep
                    let left = try integer(words[base], in: "internalNodes")
                    let right = try integer(words[base + 1], in: "internalNodes")
                    let feature = try integer(words[base + 2], in: "internalNodes")
                    for child in [left, right] where child >= nodeCount || child < -nodeCount || (child > 0 && child <= n) {
                        throw fail("\(treeContext) node \(n) refers to node or leaf \(child), which does not exist or is not below it")
                    }
                    guard (0..<featureCount).contains(feature) else {
                        throw fail("\(treeContext) uses feature \(feature) but there are \(featureCount) features")
                    }
                    var nodeThreshold: Float = 0
                    if isLBP {
                        for k in 0..<8 {
                            let word = try integer(words[base + 3 + k], in: "internalNodes")
                            guard word >= Int(Int32.min), word <= Int(UInt32.max) else {
                                throw fail("LBP subset word \(word) in \(treeContext) is out of range")
                            }
                            parsed.subsets.append(UInt32(truncatingIfNeeded: word))
                        }
                    } else {
                        nodeThreshold = try real(words[base + 3], in: "internalNodes")
                    }
                    parsed.nodes.append(Node(feature: feature, threshold: nodeThreshold, left: left, right: right))
                }
                for word in leafWords {
                    parsed.leaves.append(try real(word, in: "leafValues"))
                }
            }
        }
    }
}
