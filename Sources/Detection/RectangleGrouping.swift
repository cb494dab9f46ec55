import FaceCore

/// OpenCV's `groupRectangles(rects, groupThreshold, eps)`, with scratch buffers kept between
/// calls.
///
/// Raw windows are partitioned into classes of "similar" rectangles (transitive closure of
/// OpenCV's `SimilarRects`: all four edges within `eps · (min(w) + min(h)) / 2`); each class
/// becomes its mean rectangle; classes with `count <= groupThreshold` are dropped, and so is a
/// class lying inside another (with `eps` slack) whose count exceeds `max(3, count)` (or any
/// qualifying class when its own count is below 3). Classes come out in order of their first
/// member.
struct RectangleGrouping {
    private var parent: [Int32] = []
    private var rank: [Int32] = []
    private var byX: [Int32] = []
    private var label: [Int32] = []
    private var totals: [SIMD4<Int>] = []
    private var counts: [Int] = []
    private var means: [FaceBox] = []

    /// Groups `rects` into `output` (replacing its contents). With `groupThreshold <= 0`
    /// `rects` are copied unchanged.
    mutating func group(_ rects: [FaceBox], groupThreshold: Int, eps: Double, into output: inout [FaceBox]) {
        output.removeAll(keepingCapacity: true)
        guard groupThreshold > 0, !rects.isEmpty else {
            output.append(contentsOf: rects)
            return
        }
        let classCount = partition(rects, eps: eps)
        totals.removeAll(keepingCapacity: true)
        totals.append(contentsOf: repeatElement(.zero, count: classCount))
        counts.removeAll(keepingCapacity: true)
        counts.append(contentsOf: repeatElement(0, count: classCount))
        for (index, rect) in rects.enumerated() {
            let cls = Int(label[index])
            totals[cls] &+= SIMD4(rect.x, rect.y, rect.width, rect.height)
            counts[cls] += 1
        }
        means.removeAll(keepingCapacity: true)
        for cls in 0..<classCount {
            let s = 1 / Float(counts[cls])
            func mean(_ total: Int) -> Int { Int((Float(total) * s).rounded(.toNearestOrEven)) }
            let t = totals[cls]
            means.append(FaceBox(x: mean(t[0]), y: mean(t[1]), width: mean(t[2]), height: mean(t[3])))
        }
        for i in 0..<classCount {
            let r1 = means[i], n1 = counts[i]
            guard n1 > groupThreshold else { continue }
            var swallowed = false
            for j in 0..<classCount where j != i && counts[j] > groupThreshold {
                let r2 = means[j], n2 = counts[j]
                let dx = Int((Double(r2.width) * eps).rounded(.toNearestOrEven))
                let dy = Int((Double(r2.height) * eps).rounded(.toNearestOrEven))
                if r1.x >= r2.x - dx, r1.y >= r2.y - dy,
                   r1.x + r1.width <= r2.x + r2.width + dx, r1.y + r1.height <= r2.y + r2.height + dy,
                   n2 > max(3, n1) || n1 < 3 {
                    swallowed = true
                    break
                }
            }
            if !swallowed { output.append(r1) }
        }
    }

    /// OpenCV's `SimilarRects` predicate.
    @inline(__always)
    static func similar(_ a: FaceBox, _ b: FaceBox, eps: Double) -> Bool {
        let delta = eps * Double(min(a.width, b.width) + min(a.height, b.height)) * 0.5
        return Double(abs(a.x - b.x)) <= delta && Double(abs(a.y - b.y)) <= delta
            && Double(abs(a.x + a.width - b.x - b.width)) <= delta
            && Double(abs(a.y + a.height - b.y - b.height)) <= delta
    }

    /// Union-find over the similarity graph; fills `label` (classes numbered by first member)
    /// and returns the number of classes. Only pairs whose x differ by at most the largest
    /// possible `delta` are compared (candidates sorted by x), which gives the same classes as
    /// OpenCV's all-pairs `partition`.
    private mutating func partition(_ rects: [FaceBox], eps: Double) -> Int {
        let n = rects.count
        parent.removeAll(keepingCapacity: true)
        parent.append(contentsOf: 0..<Int32(n))
        rank.removeAll(keepingCapacity: true)
        rank.append(contentsOf: repeatElement(0, count: n))
        byX.removeAll(keepingCapacity: true)
        byX.append(contentsOf: 0..<Int32(n))
        byX.sort { rects[Int($0)].x < rects[Int($1)].x }
        var maxSpan = 0
        for rect in rects { maxSpan = max(maxSpan, rect.width + rect.height) }
        let reach = eps * Double(maxSpan) * 0.5
        func root(_ i: Int) -> Int {
            var r = i
            while parent[r] != Int32(r) { r = Int(parent[r]) }
            var k = i
            while parent[k] != Int32(r) {
                let next = Int(parent[k])
                parent[k] = Int32(r)
                k = next
            }
            return r
        }
        for a in 0..<n {
            let i = Int(byX[a])
            var b = a + 1
            while b < n {
                let j = Int(byX[b])
                if Double(rects[j].x - rects[i].x) > reach { break }
                if Self.similar(rects[i], rects[j], eps: eps) {
                    let ri = root(i), rj = root(j)
                    if ri != rj {
                        if rank[ri] < rank[rj] {
                            parent[ri] = Int32(rj)
                        } else {
                            parent[rj] = Int32(ri)
                            if rank[ri] == rank[rj] { rank[ri] += 1 }
                        }
                    }
                }
                b += 1
            }
        }
        label.removeAll(keepingCapacity: true)
        label.append(contentsOf: repeatElement(-1, count: n))
        // Reuse `rank` as the class number of each root.
        for i in 0..<n { rank[i] = -1 }
        var classes: Int32 = 0
        for i in 0..<n {
            let r = root(i)
            if rank[r] < 0 {
                rank[r] = classes
                classes += 1
            }
            label[i] = rank[r]
        }
        return Int(classes)
    }
}
