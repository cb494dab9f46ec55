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
        let count = initialShape.count
        let landmarks = structure.landmarks
        let features = structure.featuresPerCascade
        let trees = structure.treesPerCascade
        let leavesPerTree = structure.leavesPerTree
        let splitsPerTree = leavesPerTree - 1
        // dlib's unnormalizing_tform: (0,0) -> top-left, (1,1) -> bottom-right, inclusive corners.
        let left = Double(box.x), top = Double(box.y)
        let spanX = Double(box.right - box.x), spanY = Double(box.bottom - box.y)
        let width = image.width, height = image.height

        withUnsafeTemporaryAllocation(of: Float.self, capacity: count) { current in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: features) { values in
                initialShape.withUnsafeBufferPointer { initial in
                    _ = current.initialize(fromContentsOf: initial)
                    image.pixels.withUnsafeBufferPointer { pixels in
                        anchors.withUnsafeBufferPointer { anchors in
                            deltas.withUnsafeBufferPointer { deltas in
                                splits.withUnsafeBufferPointer { splits in
                                    leaves.withUnsafeBufferPointer { leaves in
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
                                                let x = (spanX * Double(vx) + left + 0.5).rounded(.down)
                                                let y = (spanY * Double(vy) + top + 0.5).rounded(.down)
                                                if x >= 0, y >= 0, x < Double(width), y < Double(height) {
                                                    values[i] = pixels[Int(y) * width + Int(x)]
                                                } else {
                                                    values[i] = 0
                                                }
                                            }
                                            // Walk every tree of the level and add its leaf to the shape.
                                            for tree in 0..<trees {
                                                let index = cascade * trees + tree
                                                let nodes = index * splitsPerTree
                                                var node = 0
                                                while node < splitsPerTree {
                                                    let split = splits[nodes + node]
                                                    let difference = Int32(values[Int(split.feature1)]) - Int32(values[Int(split.feature2)])
                                                    node = difference > split.threshold ? 2 * node + 1 : 2 * node + 2
                                                }
                                                let leaf = leaves.baseAddress! + (index * leavesPerTree + node - splitsPerTree) * count
                                                for k in 0..<count { current[k] += leaf[k] }
                                            }
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
}
