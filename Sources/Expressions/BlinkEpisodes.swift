/// Finds eye-narrowing episodes in one face's stream of EARs, frame by frame, and measures each
/// for `BlinkModel`: the candidate search of the learned blink decision.
///
/// Each eye's EAR is read as a share of its open level, the 90th percentile (interpolated
/// linearly between ranks) of that eye's EAR over the frames in [t − 2 s, t − 0.25 s); a frame
/// with fewer than 8 such frames has no ratio. A **run** is a stretch of consecutive frames whose
/// ratio (both eyes' mean EAR over both open levels) is below `runLimit`; it closes at the first
/// frame without a ratio or above it, when the face is lost, after a gap of more than `maxGap`,
/// or when it has lasted `maxRun`. In a closed run every frame below `limit` with no lower ratio
/// within two frames (nor an equal one in the two before it) is a lowest point; deepest first,
/// each one's **episode** is the frames around it below half its depth that no deeper one took,
/// so a double blink gives two. An episode is measured once the stream has reached `lookAhead`
/// past its lowest frame (or when the face is lost): both eyes' ratios at 13 moments around the
/// lowest frame, interpolated linearly over the kept frames (the ends held), its depths, its
/// length, and the mean ratio over the `levelBefore` seconds before it; and how much the ratios
/// jittered in the second before it (`BlinkCandidate.jitter`) and how far the head turned over it
/// (`BlinkCandidate.turn`). `Scripts/train_blink_model.py` holds the same search in Python, which trains the
/// model on it and writes the parity fixture `BlinkEpisodesTests` checks.
///
/// Storage is fixed: a frame's work allocates nothing. Frames older than `history` are dropped,
/// or the oldest when `capacity` frames are kept.
public struct BlinkEpisodes: Sendable {
    /// Ratio samples per eye in a candidate's window, and their spacing in seconds.
    public static let windowSamples = 13
    public static let windowStep = 0.05
    public static let lookAhead = windowStep * Double(windowSamples / 2)
    static let openQuantile = 0.9
    static let openWindow = (back: 2.0, gap: 0.25)
    static let openMinimumFrames = 8
    static let limit = 0.85
    static let runLimit = 0.925
    static let maxRun = 2.0
    static let maxGap = 0.5
    static let history = 3.0
    static let levelBefore = 0.3
    static let jitterWindow = 1.0
    static let turnMargin = 0.1
    /// Most episodes waiting to be measured (a run holds a few).
    static let maxPending = 64

    private struct Frame {
        var seq: Int
        var t: Double
        var left: Double
        var right: Double
        /// Both eyes' mean over their mean open level, and each eye's share; NaN: no ratio.
        var ratio: Double
        var leftRatio: Double
        var rightRatio: Double
        var yaw: Double
        /// In a closed run: a lowest point not yet given its episode, and a frame an episode took.
        var lowest = false
        var taken = false
    }

    private struct Pending {
        var first: Int
        var last: Int
        var lowest: Int
        var t: Double
    }

    private let capacity: Int
    private var frames: [Frame]
    private var head = 0
    private var count = 0
    private var nextSeq = 0
    private var runFirst: Int?
    private var pending: [Pending] = []
    /// Both eyes' open-level samples (left in the first half, right in the second), then the
    /// jitter's changes.
    private var scratch: [Double]

    /// - Parameter capacity: most frames kept; size it for `history` (3 s) at the highest frame rate.
    public init(capacity: Int = 512) {
        self.capacity = max(capacity, 16)
        frames = [Frame](repeating: Frame(seq: 0, t: 0, left: 0, right: 0, ratio: .nan, leftRatio: .nan, rightRatio: .nan, yaw: 0),
                         count: self.capacity)
        scratch = [Double](repeating: 0, count: 2 * self.capacity)
        pending.reserveCapacity(Self.maxPending)
    }

    /// Takes one frame of the face (EARs of the person's left and right eye and the head's yaw
    /// in degrees at `t`) and passes every episode measured on it to `found`, oldest first. A
    /// frame whose `t` is not after the last one's is ignored.
    public mutating func update(t: Double, earLeft: Double, earRight: Double, yaw: Double, found: (BlinkCandidate) -> Void) {
        if count > 0 {
            let lastT = frame(at: count - 1).t
            guard t > lastT else { return }
            if t - lastT > Self.maxGap { lost(found: found) }
        }
        var ratio = Double.nan, leftRatio = Double.nan, rightRatio = Double.nan
        if let (openLeft, openRight) = openLevels(at: t) {
            ratio = (earLeft + earRight) / 2 / ((openLeft + openRight) / 2)
            leftRatio = earLeft / openLeft
            rightRatio = earRight / openRight
        }
        if count == capacity { dropOldest() }
        let seq = nextSeq
        nextSeq += 1
        frames[(head + count) % capacity] = Frame(seq: seq, t: t, left: earLeft, right: earRight, ratio: ratio,
                                                  leftRatio: leftRatio, rightRatio: rightRatio, yaw: yaw)
        count += 1
        if ratio < Self.runLimit {
            if let first = runFirst {
                if t - frame(seq: first).t >= Self.maxRun { close(through: seq) }
            } else {
                runFirst = seq
            }
        } else if runFirst != nil {
            close(through: seq - 1)
        }
        while count > 0 && frame(at: 0).t < t - Self.history { dropOldest() }
        decide(until: t, found: found)
    }

    /// The face was lost (or is not watched): closes the open run, measures every episode with
    /// the frames there are, and forgets them.
    public mutating func lost(found: (BlinkCandidate) -> Void) {
        if runFirst != nil, count > 0 { close(through: frame(at: count - 1).seq) }
        decide(until: .infinity, found: found)
        head = 0
        count = 0
        runFirst = nil
        pending.removeAll(keepingCapacity: true)
    }

    // MARK: - Frames

    private func frame(at index: Int) -> Frame { frames[(head + index) % capacity] }

    private func frame(seq: Int) -> Frame { frame(at: seq - frames[head].seq) }

    private func index(of seq: Int) -> Int? {
        let i = seq - frames[head].seq
        return count > 0 && i >= 0 && i < count ? i : nil
    }

    private mutating func dropOldest() {
        let dropped = frames[head].seq
        head = (head + 1) % capacity
        count -= 1
        // A run or an episode that lost its first frames starts at the oldest kept one.
        if let first = runFirst, first <= dropped { runFirst = count > 0 ? frames[head].seq : nil }
        for k in pending.indices where pending[k].first <= dropped {
            let last = pending[k].last
            pending[k].first = min(dropped + 1, last)
        }
    }

    /// Each eye's open level at `t`, or nil with fewer than `openMinimumFrames` frames in the window.
    private mutating func openLevels(at t: Double) -> (Double, Double)? {
        var n = 0
        for i in 0..<count {
            let f = frame(at: i)
            if f.t >= t - Self.openWindow.back && f.t < t - Self.openWindow.gap {
                scratch[n] = f.left
                scratch[capacity + n] = f.right
                n += 1
            }
        }
        guard n >= Self.openMinimumFrames else { return nil }
        let capacity = self.capacity
        return scratch.withUnsafeMutableBufferPointer { buffer in
            let left = UnsafeMutableBufferPointer(rebasing: buffer[0..<n])
            let right = UnsafeMutableBufferPointer(rebasing: buffer[capacity..<(capacity + n)])
            return (Self.percentile(left, count: n, quantile: Self.openQuantile),
                    Self.percentile(right, count: n, quantile: Self.openQuantile))
        }
    }

    /// The quantile of the first `count` values with linear interpolation between ranks, as
    /// numpy's default `percentile` (reorders them).
    static func percentile(_ a: UnsafeMutableBufferPointer<Double>, count: Int, quantile: Double) -> Double {
        let position = quantile * Double(count - 1)
        let low = Int(position.rounded(.down))
        let lowValue = quickselect(a, count: count, k: low)
        guard low + 1 < count else { return lowValue }
        let highValue = leastAfter(a, count: count, k: low)
        return lowValue + (highValue - lowValue) * (position - Double(low))
    }

    // MARK: - Episodes

    /// Closes the run from `runFirst` through `last` and queues its episodes.
    private mutating func close(through last: Int) {
        guard let first = runFirst, let firstIndex = index(of: first), let lastIndex = index(of: last),
              firstIndex <= lastIndex else {
            runFirst = nil
            return
        }
        runFirst = nil
        for i in firstIndex...lastIndex {
            frames[(head + i) % capacity].taken = false
            frames[(head + i) % capacity].lowest = false
            let r = frame(at: i).ratio
            guard r < Self.limit else { continue }
            var isLowest = true
            for j in max(firstIndex, i - 2)...min(lastIndex, i + 2) where j != i {
                let other = frame(at: j).ratio
                if other < r || (j < i && other == r) { isLowest = false }
            }
            frames[(head + i) % capacity].lowest = isLowest
        }
        // Deepest first (the earlier of equals), each episode stopping at frames a deeper one took.
        while true {
            var pick: Int?
            for i in firstIndex...lastIndex where frame(at: i).lowest {
                if pick.map({ frame(at: i).ratio < frame(at: $0).ratio }) ?? true { pick = i }
            }
            guard let i = pick else { return }
            frames[(head + i) % capacity].lowest = false
            guard !frame(at: i).taken else { continue }
            let half = (1 + frame(at: i).ratio) / 2
            var a = i, b = i
            while a - 1 >= firstIndex, frame(at: a - 1).ratio < half, !frame(at: a - 1).taken { a -= 1 }
            while b + 1 <= lastIndex, frame(at: b + 1).ratio < half, !frame(at: b + 1).taken { b += 1 }
            for j in a...b { frames[(head + j) % capacity].taken = true }
            let episode = Pending(first: frame(at: a).seq, last: frame(at: b).seq, lowest: frame(at: i).seq, t: frame(at: i).t)
            if pending.count < Self.maxPending { pending.append(episode) }
        }
    }

    /// Measures and passes on, lowest frame first, every queued episode whose look-ahead `t` reached.
    private mutating func decide(until t: Double, found: (BlinkCandidate) -> Void) {
        while true {
            var next: Int?
            for k in pending.indices where pending[k].t + Self.lookAhead <= t {
                if next.map({ pending[k].lowest < pending[$0].lowest }) ?? true { next = k }
            }
            guard let next else { return }
            // Each in a statement of its own: a call's copy of self, taken before its arguments,
            // would otherwise share the arrays while an argument changes them, and the change
            // would copy them.
            let episode = pending.remove(at: next)
            let start = frame(at: index(of: episode.first) ?? 0).t
            let jitter = jitter(before: start)
            let candidate = measure(episode, jitter: jitter)
            found(candidate)
        }
    }

    /// The median of the mean change of both eyes' ratios between consecutive frames with a
    /// ratio in the `jitterWindow` seconds before `start` (0 with none).
    private mutating func jitter(before start: Double) -> Double {
        var n = 0
        var previous: Frame?
        for i in 0..<count {
            let f = frame(at: i)
            guard !f.ratio.isNaN, f.t >= start - Self.jitterWindow, f.t < start else { continue }
            if let p = previous {
                scratch[n] = (abs(f.leftRatio - p.leftRatio) + abs(f.rightRatio - p.rightRatio)) / 2
                n += 1
            }
            previous = f
        }
        guard n > 0 else { return 0 }
        return scratch.withUnsafeMutableBufferPointer { a in
            let middle = quickselect(a, count: n, k: (n - 1) / 2)
            guard n % 2 == 0 else { return middle }
            return (middle + leastAfter(a, count: n, k: (n - 1) / 2)) / 2
        }
    }

    private func measure(_ p: Pending, jitter: Double) -> BlinkCandidate {
        var features = BlinkCandidate.Features(repeating: 0)
        let half = Self.windowSamples / 2
        for k in 0..<Self.windowSamples {
            let at = p.t + Self.windowStep * Double(k - half)
            let (left, right) = ratios(at: at)
            features[k] = left
            features[Self.windowSamples + k] = right
        }
        var lowest = Double.infinity, lowestLeft = Double.infinity, lowestRight = Double.infinity
        let firstIndex = index(of: p.first) ?? 0, lastIndex = index(of: p.last) ?? firstIndex
        for i in firstIndex...lastIndex {
            let f = frame(at: i)
            lowest = min(lowest, f.ratio)
            lowestLeft = min(lowestLeft, f.leftRatio)
            lowestRight = min(lowestRight, f.rightRatio)
        }
        let start = frame(at: firstIndex).t
        let end: Double
        if lastIndex + 1 < count {
            end = frame(at: lastIndex + 1).t
        } else if lastIndex > 0 {
            end = frame(at: lastIndex).t + (frame(at: lastIndex).t - frame(at: lastIndex - 1).t)
        } else {
            end = frame(at: lastIndex).t + 0.04
        }
        let n = 2 * Self.windowSamples
        features[n] = 1 - lowest
        features[n + 1] = 1 - lowestLeft
        features[n + 2] = 1 - lowestRight
        features[n + 3] = end - start
        var sum = 0.0, frames = 0
        for i in 0..<count {
            let f = frame(at: i)
            if f.t >= start - Self.levelBefore && f.t < start && !f.ratio.isNaN {
                sum += f.ratio
                frames += 1
            }
        }
        features[n + 4] = frames > 0 ? sum / Double(frames) : 1
        var yawLow = Double.infinity, yawHigh = -Double.infinity
        for i in 0..<count {
            let f = frame(at: i)
            if f.t >= start - Self.turnMargin && f.t <= end + Self.turnMargin {
                yawLow = min(yawLow, f.yaw)
                yawHigh = max(yawHigh, f.yaw)
            }
        }
        return BlinkCandidate(start: start, end: end, lowest: p.t, features: features, jitter: jitter,
                              turn: yawHigh - yawLow)
    }

    /// Both eyes' ratios at `at`, interpolated linearly between the kept frames with a ratio
    /// (the first or last one's beyond them).
    private func ratios(at: Double) -> (Double, Double) {
        var before: Frame?, after: Frame?
        var first: Frame?, last: Frame?
        for i in 0..<count {
            let f = frame(at: i)
            guard !f.ratio.isNaN else { continue }
            if first == nil { first = f }
            last = f
            if f.t <= at { before = f } else if after == nil { after = f }
        }
        guard let first, let last else { return (.nan, .nan) }
        if at <= first.t { return (first.leftRatio, first.rightRatio) }
        if at >= last.t { return (last.leftRatio, last.rightRatio) }
        guard let lo = before, let hi = after else { return (last.leftRatio, last.rightRatio) }
        return (lo.leftRatio + (hi.leftRatio - lo.leftRatio) * (at - lo.t) / (hi.t - lo.t),
                lo.rightRatio + (hi.rightRatio - lo.rightRatio) * (at - lo.t) / (hi.t - lo.t))
    }
}
