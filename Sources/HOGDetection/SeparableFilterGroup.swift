/// Consecutive rank-one parts of one detection filter that read the same fHOG plane (dlib splits
/// each plane's 10 × 10 filter into 1–3 such parts). Their row passes share the loads of the
/// plane's rows (`hog_correlate_rows_avx2`), which is about twice as fast as one pass per part;
/// each part's sums are unchanged.
struct SeparableFilterGroup: Sendable {
    /// The parts, in the filter's order; all read `plane` and have taps of the same lengths.
    let parts: [SeparableFilter]
    /// The parts' row taps one after the other (`parts.count × row length`).
    let rowTaps: [Float]

    /// The fHOG plane (0..<31) the parts read.
    var plane: Int { parts[0].plane }

    /// The most parts in a group: the kernel keeps three parts' sums in registers.
    static let largest = 3

    init(_ parts: [SeparableFilter]) {
        precondition(!parts.isEmpty && parts.count <= Self.largest, "a group holds 1...\(Self.largest) parts")
        precondition(parts.allSatisfy {
            $0.plane == parts[0].plane && $0.row.count == parts[0].row.count && $0.column.count == parts[0].column.count
        }, "a group's parts read one plane with taps of one size")
        self.parts = parts
        rowTaps = parts.flatMap(\.row)
    }

    /// `parts` in groups of consecutive parts on one plane (at most `largest` a group), in order.
    static func grouping(_ parts: [SeparableFilter]) -> [SeparableFilterGroup] {
        var groups: [SeparableFilterGroup] = []
        var start = 0
        while start < parts.count {
            var end = start + 1
            while end < parts.count, end - start < largest, parts[end].plane == parts[start].plane { end += 1 }
            groups.append(SeparableFilterGroup(Array(parts[start..<end])))
            start = end
        }
        return groups
    }
}
