/// Reports the blinks that `BlinkDetector`'s state machine misses, by a learned decision.
///
/// The state machine is strict by design: a blink must take both eyes below a fixed share of
/// their open level, and staggered, one-frame or shallow blinks of narrow eyes, and blinks while
/// the head moves, fall short of it. This watches the same eyes with `BlinkEpisodes` and
/// `BlinkModel` and reports a blink for every episode the model judges one (`probability ≥
/// threshold`) whose depth stands out of the landmarks' jitter (more than `jitterFactor` times
/// `BlinkCandidate.jitter`: a photo turned by hand, a head turn or eyes narrowed in a smile swing
/// the points nearly as deep), over which the head turned no more than `maxTurn`, and that
/// overlaps none of the state machine's blinks, winks or eyes-closed intervals:
/// what the state machine reports stays as it is (its winks, closures and timing), and the
/// learned decision only adds. A learned blink is reported once its episode was measured
/// (`BlinkEpisodes.lookAhead` after its lowest frame) and the state machine has finished any
/// episode of its own, with the span of the episode at half depth.
///
/// Feed it every frame after the state machine (`stateMachine(_:)` with each event the machine
/// emitted, then `update`), and `lost` when the face is not watched. Storage is bounded, and a
/// frame's work allocates nothing once the lists have held their first entries.
public struct LearnedBlinks: Sendable {
    public let model: BlinkModel
    /// A candidate over which the yaw moved more than this (degrees) is a head turn, not a blink
    /// (`BlinkSettings.maxYawChange`: the state machine judges blinks made while turning itself).
    public let maxTurn: Double
    private var episodes: BlinkEpisodes
    /// The state machine's recent blinks, winks and closures (end infinite while one is open).
    private var spans: [(start: Double, end: Double)] = []
    /// Episodes judged blinks, waiting for the state machine to finish an episode.
    private var waiting: [(start: Double, end: Double)] = []
    private static let kept = 16
    /// A candidate's depth must be more than this many times its jitter (see `BlinkCandidate.jitter`).
    public static let jitterFactor = 6.0

    /// Whether the model, the jitter test and the turn test take `candidate` for a blink.
    public func isBlink(_ candidate: BlinkCandidate) -> Bool { Self.isBlink(candidate, model: model, maxTurn: maxTurn) }

    private static func isBlink(_ candidate: BlinkCandidate, model: BlinkModel, maxTurn: Double) -> Bool {
        candidate.depth > jitterFactor * candidate.jitter && candidate.turn <= maxTurn
            && model.probability(of: candidate.features) >= model.threshold
    }

    public init(model: BlinkModel = .standard, maxTurn: Double = BlinkSettings().maxYawChange, capacity: Int = 512) {
        self.model = model
        self.maxTurn = maxTurn
        episodes = BlinkEpisodes(capacity: capacity)
    }

    /// Notes an event the state machine emitted.
    public mutating func stateMachine(_ event: ExpressionEvent) {
        switch event {
        case .blink(let start, let duration), .wink(_, let start, let duration), .eyesClosed(.end, let start, let duration):
            if let open = spans.lastIndex(where: { $0.start == start && $0.end == .infinity }) { spans.remove(at: open) }
            remember((start, start + duration))
        case .eyesClosed(.start, let start, _):
            remember((start, .infinity))
        case .smile, .mouthOpen:
            break
        }
    }

    /// Takes one watched frame of the face (`yaw` in degrees). `busy`: the state machine is inside
    /// an episode.
    public mutating func update(t: Double, earLeft: Double, earRight: Double, yaw: Double, busy: Bool,
                                emit: (ExpressionEvent) -> Void) {
        judge(busy: busy, emit: emit) { episodes, found in
            episodes.update(t: t, earLeft: earLeft, earRight: earRight, yaw: yaw, found: found)
        }
    }

    /// The face is not watched on this frame (lost, turned too far, or no finite EAR).
    public mutating func lost(busy: Bool, emit: (ExpressionEvent) -> Void) {
        judge(busy: busy, emit: emit) { episodes, found in episodes.lost(found: found) }
    }

    /// Feeds the episodes (`feed` passes each measured candidate to its second argument), keeps
    /// the candidates judged blinks, and reports them unless the state machine is `busy`.
    private mutating func judge(
        busy: Bool, emit: (ExpressionEvent) -> Void,
        feed: (inout BlinkEpisodes, (BlinkCandidate) -> Void) -> Void
    ) {
        let model = self.model, maxTurn = self.maxTurn
        // The list is moved out and back (not copied), so appending to it and emptying it never
        // allocate.
        var found: [(start: Double, end: Double)] = []
        swap(&found, &waiting)
        feed(&episodes) { candidate in
            if Self.isBlink(candidate, model: model, maxTurn: maxTurn), found.count < Self.kept {
                found.append((candidate.start, candidate.end))
            }
        }
        swap(&found, &waiting)
        if !busy { report(emit: emit) }
    }

    private mutating func report(emit: (ExpressionEvent) -> Void) {
        for blink in waiting where !spans.contains(where: { $0.start <= blink.end && blink.start <= $0.end }) {
            emit(.blink(start: blink.start, duration: blink.end - blink.start))
        }
        waiting.removeAll(keepingCapacity: true)
    }

    private mutating func remember(_ span: (start: Double, end: Double)) {
        if spans.count == Self.kept { spans.removeFirst() }
        spans.append(span)
    }
}
