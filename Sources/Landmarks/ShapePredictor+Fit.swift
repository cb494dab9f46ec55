import CCPUFeatures
import CLandmarkKernels
import FaceCore
import Imaging

extension ShapePredictor {
    /// Fits the landmarks of the face in `box`.
    public func fit(_ image: GrayImage, box: FaceBox) -> FaceShape {
        var shape = FaceShape(points: [])
        fit(image, box: box, into: &shape)
        return shape
    }

    /// Fits the landmarks of the face in `box` into `shape`, reusing its storage (no allocation
    /// once `shape` has held a fit).
    ///
    /// Pixels sampled outside the image read as 0, as in dlib, so boxes that reach past the
    /// frame edge are fine. An empty image or box gives the mean shape stretched over the box.
    public func fit(_ image: GrayImage, box: FaceBox, into shape: inout FaceShape) {
        fit(image, box: box, into: &shape, avx2: Self.avx2)
    }

    /// `fit(_:box:into:)` on an image of which only `valid` holds the frame's pixels (the rest
    /// left undecoded): returns false when the fit sampled a pixel of the image outside `valid`,
    /// in which case `shape` is not the fit of the frame (fit again on the whole frame). When it
    /// returns true, `shape` is exactly what a fit on the whole frame gives.
    public func fit(_ image: GrayImage, box: FaceBox, into shape: inout FaceShape, within valid: PixelRegion) -> Bool {
        fit(image, box: box, into: &shape, avx2: Self.avx2, within: valid)
    }

    /// Whether the AVX2 leaf sums (`landmarks_accumulate_avx2`) may run on this CPU.
    static let avx2 = cpu_has_avx2()

    /// `fit` with the leaf sums chosen by `avx2` (tests compare both: the same sums in the same
    /// order, so the same points).
    @discardableResult
    func fit(_ image: GrayImage, box: FaceBox, into shape: inout FaceShape, avx2: Bool,
             within valid: PixelRegion? = nil) -> Bool {
        let count = initialShape.count
        let landmarks = structure.landmarks
        let features = structure.featuresPerCascade
        let trees = structure.treesPerCascade
        let leavesPerTree = structure.leavesPerTree
        let splitsPerTree = leavesPerTree - 1
        let depth = leavesPerTree.trailingZeroBitCount
        // dlib's unnormalizing_tform: (0,0) -> top-left, (1,1) -> bottom-right, inclusive corners.
        let left = Double(box.x), top = Double(box.y)
        let spanX = Double(box.right - box.x), spanY = Double(box.bottom - box.y)
        let width = image.width, height = image.height
        // Samples inside the image but outside `valid` read stale pixels: they make the fit invalid.
        let area = (valid ?? .whole(width: width, height: height)).clipped(width: width, height: height)
        let validX = Double(area.x)..<Double(area.maxX), validY = Double(area.y)..<Double(area.maxY)
        var complete = true
        let leafBytes = count * MemoryLayout<Float>.stride

        withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { current in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: features) { values in
              withUnsafeTemporaryAllocation(of: Int.self, capacity: min(trees, Self.treesPerPass)) { leafOffsets in
                initialShape.withUnsafeBufferPointer { initial in
                    _ = current.initialize(fromContentsOf: initial)
                    image.pixels.withUnsafeBufferPointer { pixels in
                        anchors.withUnsafeBufferPointer { anchors in
                            deltas.withUnsafeBufferPointer { deltas in
                                splits.withUnsafeBufferPointer { splits in
                                        for cascade in 0..<structure.cascades {
                                            // Sample this level's pixel features relative to the current shape.
                                            let t = SimilarityTransform(from: initial.baseAddress!, to: UnsafePointer(current.baseAddress!),
                                                                        count: landmarks)
                                            let first = cascade * features
                                            for i in 0..<features {
                                                let d = deltas[first + i]
                                                let anchor = 2 * Int(anchors[first + i])
                                                let vx = (t.m00 * d.x + t.m01 * d.y) + current[anchor]
                                                let vy = (t.m10 * d.x + t.m11 * d.y) + current[anchor + 1]
                                                // dlib rounds with floor(v + 0.5); for v + 0.5 >= 0 truncation is the
                                                // same floor and avoids a libm call on baseline x86-64.
                                                let x = spanX * Double(vx) + left + 0.5
                                                let y = spanY * Double(vy) + top + 0.5
                                                if validX.contains(x), validY.contains(y) {
                                                    values[i] = pixels[Int(y) * width + Int(x)]
                                                } else {
                                                    if x >= 0, y >= 0, x < Double(width), y < Double(height) { complete = false }
                                                    values[i] = 0
                                                }
                                            }
                                            // Walk every tree of the level to its leaf, four trees at a time so that
                                            // their node loads overlap. All trees of a level see the same features,
                                            // so the leaves can be found first and added afterwards.
                                            let levelTrees = cascade * trees
                                            let levelSplits = splits.baseAddress! + levelTrees * splitsPerTree
                                            let levelLeaves = levelTrees * leavesPerTree - splitsPerTree
                                            let features = UnsafePointer(values.baseAddress!)
                                            var passStart = 0
                                            while passStart < trees {
                                                let passEnd = min(passStart + Self.treesPerPass, trees)
                                                var tree = passStart
                                                while tree + 4 <= passEnd {
                                                    let s0 = levelSplits + tree * splitsPerTree, s1 = s0 + splitsPerTree
                                                    let s2 = s1 + splitsPerTree, s3 = s2 + splitsPerTree
                                                    var n0 = 0, n1 = 0, n2 = 0, n3 = 0
                                                    for _ in 0..<depth {
                                                        n0 = Self.descend(s0, n0, features)
                                                        n1 = Self.descend(s1, n1, features)
                                                        n2 = Self.descend(s2, n2, features)
                                                        n3 = Self.descend(s3, n3, features)
                                                    }
                                                    let slot = tree - passStart
                                                    leafOffsets[slot] = (levelLeaves + tree * leavesPerTree + n0) * count
                                                    leafOffsets[slot + 1] = (levelLeaves + (tree + 1) * leavesPerTree + n1) * count
                                                    leafOffsets[slot + 2] = (levelLeaves + (tree + 2) * leavesPerTree + n2) * count
                                                    leafOffsets[slot + 3] = (levelLeaves + (tree + 3) * leavesPerTree + n3) * count
                                                    for j in slot..<(slot + 4) { landmarks_prefetch(leaves.base + leafOffsets[j], leafBytes) }
                                                    tree += 4
                                                }
                                                while tree < passEnd {
                                                    let s0 = levelSplits + tree * splitsPerTree
                                                    var n0 = 0
                                                    for _ in 0..<depth { n0 = Self.descend(s0, n0, features) }
                                                    leafOffsets[tree - passStart] = (levelLeaves + tree * leavesPerTree + n0) * count
                                                    tree += 1
                                                }
                                                if avx2 {
                                                    landmarks_accumulate_avx2(leaves.base, leafOffsets.baseAddress!, passEnd - passStart,
                                                                              current.baseAddress!, count)
                                                } else {
                                                    Self.accumulate(leaves.base, offsets: UnsafeBufferPointer(rebasing: leafOffsets[..<(passEnd - passStart)]),
                                                                    into: current)
                                                }
                                                passStart = passEnd
                                            }
                                        }
                                }
                            }
                        }
                    }
                }
                if shape.points.count != landmarks {
                    shape.points = [SIMD2<Float>](repeating: .zero, count: landmarks)
                }
                for k in 0..<landmarks {
                    shape.points[k] = SIMD2(Float(spanX * Double(current[2 * k]) + left),
                                            Float(spanY * Double(current[2 * k + 1]) + top))
                }
              }
            }
        }
        return complete
    }

    /// Trees whose leaves are found before they are added: 64 leaf offsets (512 bytes) fit the
    /// stack buffer `withUnsafeTemporaryAllocation` gives without a heap allocation, so a fit
    /// allocates nothing. Adding a pass's leaves in tree order keeps every sum equal to dlib's.
    private static let treesPerPass = 64

    /// One step down a tree: dlib's split `feature[i1] − feature[i2] > threshold` goes to the left
    /// child `2n + 1`, otherwise to the right child `2n + 2` (branch-free: the outcome is random).
    @inline(__always)
    private static func descend(_ splits: UnsafePointer<Split>, _ node: Int, _ features: UnsafePointer<UInt8>) -> Int {
        let split = splits[node]
        let difference = Int32(features[Int(split.feature1)]) &- Int32(features[Int(split.feature2)])
        return 2 &* node &+ (difference > split.threshold ? 1 : 2)
    }

    /// Adds the leaves at `offsets` to `shape`, in tree order for every element (so the float sums
    /// equal dlib's one-tree-at-a-time `current_shape += leaf`), a column of the shape at a time
    /// (`landmarks_accumulate_avx2` does the same with AVX2).
    /// The leaf loads within a column are independent, which lets the CPU overlap the cache misses
    /// of a model far larger than the caches.
    @inline(__always)
    private static func accumulate(_ leaves: UnsafePointer<Float>, offsets: UnsafeBufferPointer<Int>,
                                   into shape: UnsafeMutableBufferPointer<Float>) {
        let count = shape.count
        let out = UnsafeMutableRawPointer(shape.baseAddress!)
        let stride8 = MemoryLayout<SIMD8<Float>>.stride
        var k = 0
        while k + 32 <= count {
            var a0 = out.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
            var a1 = out.loadUnaligned(fromByteOffset: 4 * k + stride8, as: SIMD8<Float>.self)
            var a2 = out.loadUnaligned(fromByteOffset: 4 * k + 2 * stride8, as: SIMD8<Float>.self)
            var a3 = out.loadUnaligned(fromByteOffset: 4 * k + 3 * stride8, as: SIMD8<Float>.self)
            for offset in offsets {
                let leaf = UnsafeRawPointer(leaves + offset + k)
                a0 += leaf.loadUnaligned(as: SIMD8<Float>.self)
                a1 += leaf.loadUnaligned(fromByteOffset: stride8, as: SIMD8<Float>.self)
                a2 += leaf.loadUnaligned(fromByteOffset: 2 * stride8, as: SIMD8<Float>.self)
                a3 += leaf.loadUnaligned(fromByteOffset: 3 * stride8, as: SIMD8<Float>.self)
            }
            out.storeBytes(of: a0, toByteOffset: 4 * k, as: SIMD8<Float>.self)
            out.storeBytes(of: a1, toByteOffset: 4 * k + stride8, as: SIMD8<Float>.self)
            out.storeBytes(of: a2, toByteOffset: 4 * k + 2 * stride8, as: SIMD8<Float>.self)
            out.storeBytes(of: a3, toByteOffset: 4 * k + 3 * stride8, as: SIMD8<Float>.self)
            k += 32
        }
        while k + 8 <= count {
            var a = out.loadUnaligned(fromByteOffset: 4 * k, as: SIMD8<Float>.self)
            for offset in offsets {
                a += UnsafeRawPointer(leaves + offset + k).loadUnaligned(as: SIMD8<Float>.self)
            }
            out.storeBytes(of: a, toByteOffset: 4 * k, as: SIMD8<Float>.self)
            k += 8
        }
        while k < count {
            var a = shape[k]
            for offset in offsets { a += leaves[offset + k] }
            shape[k] = a
            k += 1
        }
    }
}
