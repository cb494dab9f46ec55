/// Byte offsets of a cached model's parts, from its shape; nil when the sizes overflow.
struct CachedModelLayout {
    let initialShape: Range<Int>
    let anchors: Range<Int>
    let deltas: Range<Int>
    let splits: Range<Int>
    let leaves: Range<Int>
    var fileSize: Int { leaves.upperBound }

    init?(_ s: ModelStructure) {
        let features = s.cascades.multipliedReportingOverflow(by: s.featuresPerCascade)
        let trees = s.cascades.multipliedReportingOverflow(by: s.treesPerCascade)
        let leafCount = trees.partialValue.multipliedReportingOverflow(by: s.leavesPerTree)
        let leafFloats = leafCount.partialValue.multipliedReportingOverflow(by: 2 * s.landmarks)
        guard s.leavesPerTree >= 2, s.leavesPerTree & (s.leavesPerTree - 1) == 0, !features.overflow, !trees.overflow,
              !leafCount.overflow, !leafFloats.overflow, leafFloats.partialValue < 1 << 40
        else { return nil }
        func after(_ start: Int, _ bytes: Int) -> Range<Int> { start..<(start + bytes) }
        initialShape = after(CachedModelHeader.bytes, 2 * s.landmarks * MemoryLayout<Float>.stride)
        anchors = after(initialShape.upperBound, features.partialValue * MemoryLayout<UInt16>.stride)
        let deltaStart = (anchors.upperBound + 7) & ~7
        deltas = after(deltaStart, features.partialValue * MemoryLayout<SIMD2<Float>>.stride)
        splits = after(deltas.upperBound, trees.partialValue * (s.leavesPerTree - 1) * MemoryLayout<ShapePredictor.Split>.stride)
        let align = CachedModelHeader.leafAlignment
        let leafStart = (splits.upperBound + align - 1) / align * align
        leaves = after(leafStart, leafFloats.partialValue * MemoryLayout<Float>.stride)
    }
}
