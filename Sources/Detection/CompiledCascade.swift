/// A cascade with its features resolved to offsets for one integral-image stride: the form
/// the scanning loop evaluates.
///
/// Each split node carries its own feature test (features are small and mostly used once), so
/// a stage walks its nodes front to back. Stump cascades keep `(left, right)` leaf values per
/// node; tree cascades keep child indices and read leaves from `leaves`.
struct CompiledCascade<Test: WindowTest> {
    struct Stage {
        var firstTree: Int
        var treeCount: Int
        var threshold: Float
    }

    let stages: [Stage]
    let tests: [Test]
    /// Stump cascades: leaf values per node (equal to the tree index).
    let stumpValues: [SIMD2<Float>]
    /// Tree cascades: per node, children (`> 0` node, `<= 0` leaf `-child`).
    let children: [SIMD2<Int32>]
    /// Tree cascades: per tree, first node and first leaf.
    let treeStarts: [SIMD2<Int32>]
    let leaves: [Float]
    let isStumpBased: Bool

    init(_ cascade: CascadeClassifier, tests: [Test]) {
        stages = cascade.stages.map { Stage(firstTree: $0.firstTree, treeCount: $0.treeCount, threshold: $0.threshold) }
        self.tests = tests
        isStumpBased = cascade.isStumpBased
        leaves = cascade.leaves
        if isStumpBased {
            stumpValues = cascade.trees.map { SIMD2(cascade.leaves[$0.firstLeaf], cascade.leaves[$0.firstLeaf + 1]) }
            children = []
            treeStarts = []
        } else {
            stumpValues = []
            children = cascade.nodes.map { SIMD2(Int32($0.left), Int32($0.right)) }
            treeStarts = cascade.trees.map { SIMD2(Int32($0.firstNode), Int32($0.firstLeaf)) }
        }
    }

    /// Scans every window position of one level like OpenCV's `CascadeClassifierInvoker`,
    /// calling `accept(x, y)` for each window that passes all stages. After a window is
    /// rejected by stage 0 the next position in the row is skipped.
    func scan(_ area: LevelScan, sums: UnsafePointer<Int32>, squares: UnsafePointer<UInt32>?,
              accept: (Int, Int) -> Void) {
        tests.withUnsafeBufferPointer { testBuffer in
            stumpValues.withUnsafeBufferPointer { stumpBuffer in
                children.withUnsafeBufferPointer { childBuffer in
                    treeStarts.withUnsafeBufferPointer { startBuffer in
                        leaves.withUnsafeBufferPointer { leafBuffer in
                            stages.withUnsafeBufferPointer { stageBuffer in
                                let walker = Walker(tests: testBuffer.baseAddress!, stumpValues: stumpBuffer.baseAddress,
                                                    children: childBuffer.baseAddress, treeStarts: startBuffer.baseAddress,
                                                    leaves: leafBuffer.baseAddress!, stages: stageBuffer,
                                                    isStumpBased: isStumpBased)
                                walker.scan(area, sums: sums, squares: squares, accept: accept)
                            }
                        }
                    }
                }
            }
        }
    }

    /// Raw-pointer view of the arrays for the inner loop.
    private struct Walker {
        let tests: UnsafePointer<Test>
        let stumpValues: UnsafePointer<SIMD2<Float>>?
        let children: UnsafePointer<SIMD2<Int32>>?
        let treeStarts: UnsafePointer<SIMD2<Int32>>?
        let leaves: UnsafePointer<Float>
        let stages: UnsafeBufferPointer<Stage>
        let isStumpBased: Bool

        @inline(__always)
        func scan(_ area: LevelScan, sums: UnsafePointer<Int32>, squares: UnsafePointer<UInt32>?,
                  accept: (Int, Int) -> Void) {
            var y = 0
            while y < area.rows {
                var x = 0
                while x < area.columns {
                    let offset = y * area.stride + x
                    let window = sums + offset
                    var result = -1
                    if Test.usesVarianceNormalization, let squares {
                        if let norm = Self.normalization(area, sums: window, squares: squares + offset) {
                            result = evaluate(window, normalization: norm)
                        }
                    } else {
                        result = evaluate(window, normalization: 1)
                    }
                    if result > 0 { accept(x, y) }
                    if result == 0 { x += area.step }
                    x += area.step
                }
                y += area.step
            }
        }

        /// OpenCV's `HaarEvaluator::setWindow`: `1/sqrt(area·Σx² − (Σx)²)` over the inset
        /// window, or nil (window skipped) when that is not positive or the standard deviation
        /// is 10 or less (`area·factor >= 0.1`).
        @inline(__always)
        static func normalization(_ area: LevelScan, sums: UnsafePointer<Int32>, squares: UnsafePointer<UInt32>) -> Float? {
            let r = area.normRect
            let sum = r.sum(sums)
            let squareSum = squares[Int(r.p0)] &- squares[Int(r.p1)] &- squares[Int(r.p2)] &+ squares[Int(r.p3)]
            let value = area.normArea * Double(squareSum) - Double(sum) * Double(sum)
            guard value > 0 else { return nil }
            let factor = Float(1 / value.squareRoot())
            return area.normArea * Double(factor) < 0.1 ? factor : nil
        }

        /// Runs the stages on one window, like OpenCV's `predictOrdered*`/`predictCategorical*`:
        /// returns 1 when every stage passes, otherwise `-stage` of the first failing stage
        /// (so 0 means rejected by stage 0). Stage sums are accumulated in `double`.
        @inline(__always)
        func evaluate(_ window: UnsafePointer<Int32>, normalization: Float) -> Int {
            if isStumpBased, let stumpValues {
                for index in 0..<stages.count {
                    let stage = stages[index]
                    var sum: Double = 0
                    for node in stage.firstTree..<(stage.firstTree + stage.treeCount) {
                        let values = stumpValues[node]
                        sum += Double(tests[node].goesLeft(window, normalization: normalization) ? values[0] : values[1])
                    }
                    if sum < Double(stage.threshold) { return -index }
                }
            } else if let children, let treeStarts {
                for index in 0..<stages.count {
                    let stage = stages[index]
                    var sum: Double = 0
                    for tree in stage.firstTree..<(stage.firstTree + stage.treeCount) {
                        let start = treeStarts[tree]
                        let root = Int(start[0])
                        var child: Int32 = 0
                        repeat {
                            let node = root + Int(child)
                            let next = children[node]
                            child = tests[node].goesLeft(window, normalization: normalization) ? next[0] : next[1]
                        } while child > 0
                        sum += Double(leaves[Int(start[1]) - Int(child)])
                    }
                    if sum < Double(stage.threshold) { return -index }
                }
            }
            return 1
        }
    }
}

extension CompiledCascade where Test == HaarTest {
    /// Resolves Haar features for integral planes with row `stride`, the tilted plane at `tiltedOffset`.
    init(haar cascade: CascadeClassifier, stride: Int, tiltedOffset: Int) {
        let tests = cascade.nodes.map { node -> HaarTest in
            let rects = cascade.featureRects[(3 * node.feature)..<(3 * node.feature + 3)].map { rect in
                cascade.tilted[node.feature]
                    ? SumCorners(tiltedX: rect.x, y: rect.y, width: rect.width, height: rect.height,
                                 stride: stride, offset: tiltedOffset)
                    : SumCorners(x: rect.x, y: rect.y, width: rect.width, height: rect.height, stride: stride)
            }
            let base = 3 * node.feature
            return HaarTest(r0: rects[0], r1: rects[1], r2: rects[2],
                            w0: cascade.featureRects[base].weight, w1: cascade.featureRects[base + 1].weight,
                            w2: cascade.featureRects[base + 2].weight, threshold: node.threshold)
        }
        self.init(cascade, tests: tests)
    }
}

extension CompiledCascade where Test == LBPTest {
    /// Resolves LBP features for an integral plane with row `stride`.
    init(lbp cascade: CascadeClassifier, stride: Int) {
        let tests = cascade.nodes.enumerated().map { index, node -> LBPTest in
            let r = cascade.featureRects[node.feature]
            func row(_ j: Int) -> SIMD4<Int32> {
                SIMD4((0..<4).map { i in Int32((r.y + j * r.height) * stride + r.x + i * r.width) })
            }
            let words = cascade.subsets[(8 * index)..<(8 * index + 8)]
            return LBPTest(corners: (row(0), row(1), row(2), row(3)), subset: SIMD8(words))
        }
        self.init(cascade, tests: tests)
    }
}
