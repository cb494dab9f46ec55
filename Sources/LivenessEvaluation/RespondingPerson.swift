import Foundation
import Liveness
import Recordings

/// A recording of a real person played as that person taking a liveness check: a genuine
/// presentation to compare attacks against (ISO/IEC 30107-3's bona fide presentations).
///
/// It is a frame source on a camera clock of its own (frame `k` at `k / fps`) that shows the
/// recording's frames, steered by what the check says (`hear`):
/// - **holding still**: it plays the footage but never the stretches where the recording's
///   `truth.json` has a blink, wink, closure, smile, open mouth or speech (with `margin` around
///   them) that the step holds back (`heldBack(whileWaitingFor:)`), or marks such an action
///   unsure (lips apart in speech), as a person asked to keep still suppresses them. It makes its
///   way (at twice the speed, as a camera dropping every other frame) to the quiet half second
///   before the next annotated event of the kind the current step asks for, and moves back and
///   forth there until cued, so that the head moves as it did in the footage and never jumps far;
/// - **responding**: after each cue it waits a reaction time drawn from the seed (`reaction`;
///   voluntary blinks to a visual cue start 0.25–0.6 s after it) and then cuts to that event, so
///   that its annotated start falls at that time (for `blink:N`, N blinks in quick succession
///   from the footage where it has them, else the blink N times over, each cut in where the one
///   before it ends); a smile, open
///   mouth, turn or nod is held at most `expressionHold` before the face relaxes.
///
/// With `blinksPerMinute` above 0 the person also blinks on their own, at random times whatever
/// the check is asking (during holds, too), as people do when nobody asks them not to: each such
/// blink is one of the footage's, cut in the way a response is.
///
/// The footage is real and so are the events; only their timing follows the cues, and the
/// cuts are what a camera dropping frames gives. An event already going on at the first frame
/// (a portrait that smiles throughout) is the resting face. Turns and nods are answered from
/// `turn_left`, `turn_right` and `nod` intervals marked in the truth; a step with no annotated
/// event of its kind cannot be answered: `canRespond(to:)` says which.
public struct RespondingPerson: FrameSource {
    public let recording: Recording
    /// Seconds of footage kept clear around each annotated event while holding still.
    public let margin: Double
    /// The reaction times drawn from, seconds from a cue to the start of the response.
    public let reaction: ClosedRange<Double>
    /// Seconds of quiet footage before the next event that the person moves back and forth in.
    public let waitingRoom = 0.5
    /// Seconds of quiet footage the `waitingRoom` before a smile, open mouth, turn or nod must
    /// hold for it to answer a cue (`reachable(_:)`): the check waits for a neutral face before
    /// each such cue, and a few frames played back and forth are no rest (one misfit frame among
    /// four, read as a smile, was a quarter of a hold and kept the face from ever being neutral).
    /// A blink needs one quiet frame: the eyes are open for `margin` either side of it.
    public let shortestRest = 0.25
    /// Seconds an answering smile, open mouth, turn or nod is held at most before the face goes
    /// back to the quiet footage.
    public let expressionHold = 1.2
    /// The longest annotated smile, open mouth, turn or nod that answers a cue, in seconds: a
    /// smile or an open mouth made when asked lasts a second or two, and the footage of one that
    /// lasts longer than this is a different behaviour (`reachable(_:)`).
    public let longestExpression = 4.0
    /// Seconds the footage after a response's last event plays on before the person goes back
    /// to waiting (`settled(after:)`): the detectors see the eyes reopen fully (a blink ends when
    /// the lids have stayed up for 0.2 s) and the face relax, as a person's would.
    public let settleTail = 0.5

    private let truth: [Truth.Event]
    /// The stretches the truth marks unsure (lips apart in speech, a half-closed eye): they may
    /// show the action, so they never answer a cue, and the person holds them back as the events.
    private let unsure: [Truth.Event]
    private let period: Double
    private var generator: SplitMix64
    private var tick = 0
    /// The recording frame shown next, and the direction of play while waiting.
    private var position = 0
    private var direction = 1
    /// The event type the current step asks for, and the event the next response will show.
    private var wanted: String?
    private var target: Truth.Event?
    /// Responses waiting to be shown: the camera time of the cut, the recording frame cut to, and
    /// the recording time at which the event is over.
    private var planned: [(at: Double, frame: Int, end: Double)] = []
    /// While an event is shown: the recording time at which it is over.
    private var showingUntil: Double?

    /// The person leaves after this many seconds (a check that never ends is over by then).
    public let maximumDuration = 120.0
    /// Blinks a minute the person makes on their own, at Poisson times; 0: none (a person holding
    /// still suppresses them). People blink 15–20 times a minute at rest, fewer while watching a
    /// screen.
    public let blinksPerMinute: Double
    /// Draws the spontaneous blinks' times, apart from `generator`, so that the responses' reaction
    /// times are the same whatever the rate.
    private var spontaneity: SplitMix64
    /// The camera time of the next spontaneous blink (infinity: none).
    private var nextSpontaneous = Double.infinity

    public init(recording: Recording, seed: UInt64, margin: Double = 0.2, reaction: ClosedRange<Double> = 0.25...0.6,
                blinksPerMinute: Double = 0) throws {
        guard let truth = recording.truth else { throw RespondingPersonError.noTruth(recording.directory) }
        guard !recording.frames.isEmpty else { throw RespondingPersonError.noFrames(recording.directory) }
        self.recording = recording
        let first = recording.frames.first?.t ?? 0
        self.truth = truth.events.filter { $0.start > first }.sorted { $0.start < $1.start }
        unsure = truth.unsure ?? []
        self.margin = margin
        self.reaction = reaction
        period = 1 / recording.info.fps
        generator = SplitMix64(seed: seed)
        self.blinksPerMinute = blinksPerMinute
        spontaneity = SplitMix64(seed: ~seed)
        position = quiet(from: 0) ?? 0
        nextSpontaneous = spontaneousDelay()
    }

    /// Seconds to the next spontaneous blink: exponential with mean 60 / `blinksPerMinute`.
    private mutating func spontaneousDelay() -> Double {
        guard blinksPerMinute > 0 else { return .infinity }
        return -log(1 - Double.random(in: 0..<1, using: &spontaneity)) * 60 / blinksPerMinute
    }

    /// Whether the recording has an annotated event with which to answer `step`.
    public func canRespond(to step: ChallengeStep) -> Bool {
        let type = Self.eventType(for: step)
        return truth.contains { $0.type == type && reachable($0) }
    }

    /// What the check said: a prompt names the event to get ready for, a cue schedules it.
    public mutating func hear(_ output: CheckOutput) {
        switch output {
        case .prompt(let step, _, _, _, _, _):
            wanted = Self.eventType(for: step)
            target = wanted.flatMap { nextEvent(of: $0, after: recording.frames[position].t) }
        case .cue(let step, _, _, let t, _, _):
            guard let event = target, let type = wanted else { return }
            let count = if case .blink(let n) = step { n } else { 1 }
            let at = t + Double.random(in: reaction, using: &generator)
            if count > 1, let run = run(of: count, from: event) {
                // Blinks in quick succession in the footage itself: shown as they happened.
                let lead = min(margin, run.first.start)
                if let frame = frameIndex(at: run.first.start - lead) {
                    planned.append((at: at - lead, frame: frame, end: settled(after: run.last.end)))
                    target = nextEvent(of: type, after: run.last.end)
                    return
                }
            }
            let lead = min(margin, event.start)
            guard let frame = frameIndex(at: event.start - lead) else { return }
            // A smile or open mouth asked for is held about a second, not as long as the
            // footage's own (a laugh of several seconds), then the face relaxes.
            let end = type == "blink" ? event.end : min(event.end, event.start + expressionHold)
            var cut = at - lead
            for k in 0..<count {
                // The last event of the response plays on until the face has settled after it
                // (when the footage's own end was reached: an expression cut short is still on
                // there); the one before a further blink until `margin / 2` after its reopening.
                let shownUntil = k + 1 < count ? end + margin / 2 : end < event.end ? end + margin / 2 : settled(after: end)
                planned.append((at: cut, frame: frame, end: shownUntil))
                // A further blink is the same blink again, cut in where this one's footage ends,
                // with no return to the waiting footage in between: the eyes stay open for
                // `margin / 2` after the annotated reopening and `margin` before the next
                // closing, 0.3 s, as when people blink twice on purpose. Its own footage again,
                // not another blink's, because a person blinking twice holds the head where it
                // was: another blink of the footage comes with the head, the light and the
                // expression of another moment, and the cut to it is a jump the landmark fit must
                // catch up with (docs/liveness.md).
                cut += shownUntil - (event.start - lead)
            }
            // The next response will show the event after the last one shown; the person waits
            // for it in the quiet footage just before it.
            target = nextEvent(of: type, after: event.end)
        default:
            break
        }
    }

    /// The next camera frame, nil once `maximumDuration` has passed. A recording frame that
    /// cannot be read is a `FrameError` for this camera frame; the next call goes on.
    public mutating func nextFrame() throws -> Frame? {
        // In whole microseconds, as a camera stamps frames and a recording stores their times, so
        // that a presentation written out replays to the same verdict.
        let index = tick, t = (Double(tick) * period * 1e6).rounded() / 1e6
        guard t <= maximumDuration else { return nil }
        if t >= nextSpontaneous, showingUntil == nil, planned.isEmpty {
            // A blink of one's own, now (or as soon as no event is being shown).
            if let blink = spontaneousBlink(after: recording.frames[position].t),
               let frame = frameIndex(at: blink.start - min(margin, blink.start)) {
                planned.append((at: t, frame: frame, end: settled(after: blink.end)))
            }
            nextSpontaneous = t + spontaneousDelay()
        }
        if let next = planned.first, t >= next.at {
            planned.removeFirst()
            position = next.frame
            showingUntil = next.end
        }
        if let until = showingUntil, recording.frames[position].t > until {
            // A cut due within two frames (the next blink of the same response) follows straight
            // on from this footage, not from the waiting footage.
            if let next = planned.first, next.at - t <= 2 * period {} else { showingUntil = nil }
        }
        if showingUntil == nil { position = waitingPosition() }
        let shown = position
        tick += 1
        if showingUntil != nil {
            // The footage plays on; at its last frame the response is over, settled or not.
            if position + 1 < recording.frames.count { position += 1 } else { showingUntil = nil }
        }
        do {
            return Frame(index: index, t: t, payload: .jpeg(try recording.jpeg(shown)))
        } catch let error as FrameError {
            throw FrameError(index: index, t: t, problem: error.problem)
        }
    }

    /// Where the person is while holding still: on the way to the quiet second before the target
    /// (two frames at a time, over quiet frames only), or moving back and forth in it.
    private mutating func waitingPosition() -> Int {
        let count = recording.frames.count
        guard let target, let roomEnd = frameIndex(at: target.start - margin).map({ max($0 - 1, 0) }) else {
            // Nothing to get ready for: play the quiet footage, round and round.
            let next = position + direction
            return (next < count ? quiet(from: next) : nil) ?? quiet(from: 0) ?? position
        }
        let previousEnd = truth.last { $0.end < target.start && Self.holdsBack($0, waitingFor: wanted) }?.end ?? 0
        let roomStart = frameIndex(at: max(target.start - margin - waitingRoom, previousEnd + margin)) ?? roomEnd
        if position > roomEnd || position < roomStart && recording.frames[position].t > target.start {
            // Past it (the target lies after the end, round the loop): go there at once.
            direction = -1
            return roomEnd
        }
        if position < roomStart {
            let next = min(position + 2, count - 1)
            return quiet(from: next).map { min($0, roomEnd) } ?? roomEnd
        }
        var next = position + direction
        if next > roomEnd || next < roomStart || !isQuiet(next) {
            direction = -direction
            next = min(max(position + direction, roomStart), roomEnd)
        }
        return next
    }

    /// `count` annotated events of the same type as `first`, starting with it, each starting
    /// within 0.6 s of the previous one's end (blinks in quick succession in the footage itself);
    /// nil when the events after `first` are not such a run.
    private func run(of count: Int, from first: Truth.Event) -> (first: Truth.Event, last: Truth.Event)? {
        let matching = truth.filter { $0.type == first.type }
        guard let i = matching.firstIndex(of: first), i + count <= matching.count else { return nil }
        let run = matching[i..<(i + count)]
        return zip(run, run.dropFirst()).allSatisfy({ $1.start - $0.end <= 0.6 }) ? (run.first!, run.last!) : nil
    }

    /// The truth event type that answers `step`.
    static func eventType(for step: ChallengeStep) -> String {
        switch step {
        case .blink: return "blink"
        case .smile: return "smile"
        case .openMouth: return "mouth_open"
        case .turnLeft: return "turn_left"
        case .turnRight: return "turn_right"
        case .nod: return "nod"
        }
    }

    /// The annotated events a person holds back while waiting for a cue to do `type`: the
    /// actions the check watches for in that step (a blink during the hold before a blink cue is
    /// early; a smile before a smile cue, the mouth open, or speech, whose mouth shapes pass for
    /// both, leaves the face not neutral). Other expressions go on as in the footage: a person
    /// asked to blink on cue may smile or talk meanwhile. Before any step (nil), every annotated
    /// event is held back.
    static func heldBack(whileWaitingFor type: String?) -> Set<String>? {
        switch type {
        case "blink": return ["blink", "wink", "eyes_closed"]
        case "smile", "mouth_open": return ["smile", "mouth_open", "talking"]
        case "turn_left", "turn_right", "nod": return ["turn_left", "turn_right", "nod"]
        default: return nil
        }
    }

    /// Whether `event` is one a person waiting for a cue to do `type` holds back.
    private static func holdsBack(_ event: Truth.Event, waitingFor type: String?) -> Bool {
        heldBack(whileWaitingFor: type).map { $0.contains(event.type) } ?? true
    }

    /// Whether recording frame `index` is clear (with the margin) of every annotated event held
    /// back while waiting for a cue to do `type` (the current step's, by default).
    private func isQuiet(_ index: Int, waitingFor type: String?? = nil) -> Bool {
        let t = recording.frames[index].t, type = type ?? wanted
        let clear = { (event: Truth.Event) in !Self.holdsBack(event, waitingFor: type) || t < event.start - margin || t > event.end + margin }
        return truth.allSatisfy(clear) && unsure.allSatisfy(clear)
    }

    /// The first quiet frame at or after `index`, nil when there is none.
    private func quiet(from index: Int) -> Int? {
        (index..<recording.frames.count).first { isQuiet($0) }
    }

    /// Where the footage shown for a response ends: `settleTail` after the event's annotated end
    /// (a blink's lids and a relaxing smile are still moving when the annotation ends, and the
    /// head does not jump back to where it was waiting the moment they stop), but before the next
    /// annotated event begins.
    private func settled(after end: Double) -> Double {
        let next = truth.first { $0.start > end }?.start ?? .infinity
        return max(end + margin / 2, min(end + settleTail, next - period))
    }

    /// Whether `event` can be shown as a response: some frame (for a blink), or `shortestRest`,
    /// of the `waitingRoom` before its `margin` is clear of every annotated event held back while
    /// waiting for it (`isQuiet`), the footage shows its end, and an expression lasts at most
    /// `longestExpression`. A blink straight after a long closure cannot be shown by a person who
    /// was holding still; a smile of ten seconds (a laugh through a conversation) is one smile,
    /// and cutting it short to play it as four smiles, each cut from a full smile straight back to
    /// a neutral face, shows what no face does.
    func reachable(_ event: Truth.Event) -> Bool {
        guard let roomEnd = frameIndex(at: event.start - margin), roomEnd > 0 else { return false }
        let roomStart = frameIndex(at: event.start - margin - waitingRoom) ?? roomEnd
        if event.type != "blink", event.end - event.start > longestExpression { return false }
        // An event the recording ends in has no end to show.
        if event.end > recording.frames[recording.frames.count - 1].t { return false }
        let quiet = (roomStart..<roomEnd).filter { isQuiet($0, waitingFor: .some(event.type)) }.count
        return event.type == "blink" ? quiet > 0 : Double(quiet) * period >= shortestRest - period / 2
    }

    /// The next annotated event of `type` that quiet footage leads up to (`reachable`), that
    /// `shows` accepts, and that starts after recording time `t`, wrapping round.
    private func nextEvent(of type: String, after t: Double, where shows: (Truth.Event) -> Bool = { _ in true }) -> Truth.Event? {
        let matching = truth.filter { $0.type == type && reachable($0) && shows($0) }
        return matching.first { $0.start > t + margin } ?? matching.first
    }

    /// The next blink of one's own to show after recording time `t`, wrapping round: the next
    /// blink that can answer a cue whose footage, until the face has settled after it, shows
    /// nothing the current step holds back (a person waiting to smile on cue blinks without
    /// smiling or talking); nil when there is none.
    private func spontaneousBlink(after t: Double) -> Truth.Event? {
        nextEvent(of: "blink", after: t) { blink in
            guard let type = wanted, type != "blink",
                  let first = frameIndex(at: blink.start - min(margin, blink.start)) else { return true }
            let last = frameIndex(at: settled(after: blink.end)) ?? recording.frames.count - 1
            return (first...max(first, last)).allSatisfy { isQuiet($0, waitingFor: type) }
        }
    }

    /// The first recording frame at or after time `t`.
    private func frameIndex(at t: Double) -> Int? {
        recording.frames.firstIndex { $0.t >= t }
    }
}

/// Why a recording cannot be played as a responding person.
public enum RespondingPersonError: Error, CustomStringConvertible {
    case noTruth(String)
    case noFrames(String)

    public var description: String {
        switch self {
        case .noTruth(let directory): return "\(directory) has no truth.json, so it cannot answer cues"
        case .noFrames(let directory): return "\(directory) has no frames"
        }
    }
}
