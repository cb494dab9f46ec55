import Config
import Foundation
import Landmarks
import Liveness
import Pipeline
import Recordings

/// The scoring run of `facewatch check-eval`: every attack recording replayed into a check of
/// each challenge under each seed (an attack does not see the cues), and every genuine recording
/// played as its person answering each cue (`RespondingPerson`), into a `PresentationScore`
/// (APCER per attack kind, BPCER).
public struct CheckEvaluation {
    /// The challenges scored, by name (as `Challenge(parsing:)` reads them); `random` draws one per seed.
    public var challenges: [String]
    /// Seeds per attack recording and challenge.
    public var seeds: Int
    /// Seeds per genuine recording and challenge.
    public var genuineSeeds: Int
    /// Attack recordings shorter than this many seconds are looped to last it.
    public var attackSeconds: Double
    /// Blinks a minute each genuine person makes on their own, at random times, during holds too
    /// (`RespondingPerson.blinksPerMinute`); 0: none.
    public var genuineBlinksPerMinute: Double
    /// A folder each genuine presentation is written to as a recording (`NAME-CHALLENGE-SEED`),
    /// for `check --replay --seed`; nil: none written.
    public var saveGenuine: String?

    public init(challenges: [String], seeds: Int, genuineSeeds: Int, attackSeconds: Double, genuineBlinksPerMinute: Double = 0,
                saveGenuine: String? = nil) {
        self.challenges = challenges
        self.seeds = seeds
        self.genuineSeeds = genuineSeeds
        self.attackSeconds = attackSeconds
        self.genuineBlinksPerMinute = genuineBlinksPerMinute
        self.saveGenuine = saveGenuine
    }

    /// The challenge named `name` under `seed`.
    public static func challenge(_ name: String, seed: UInt64) throws -> Challenge {
        name == "random" ? Challenge.random(seed: seed) : try Challenge(parsing: name)
    }

    /// Scores the check on the recordings `attacks` and `genuine` open, with a progress line for
    /// each on standard error. The models load first, then each set is opened when its turn
    /// comes, so the first problem met is the one reported.
    public func run(attacks: () throws -> [Recording], genuine: () throws -> [Recording],
                    configuration: Configuration) throws -> PresentationScore {
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel, cache: configuration.landmarkCache)
        var score = PresentationScore()
        let attacks = try attacks()
        var progress = ProgressLine(total: attacks.count, label: "attacks")
        for (n, recording) in attacks.enumerated() {
            var source = RecordingSource(recording: recording, loops: CheckRun.loops(recording, toLast: attackSeconds))
            let frames = try CheckRun.process(&source, with: FrameProcessor(configuration: configuration, predictor: predictor))
            let name = URL(fileURLWithPath: recording.directory).lastPathComponent
            let kind = recording.truth?.attack ?? "replay"
            for challengeName in challenges {
                for seed in 1...UInt64(seeds) {
                    let verdict = CheckRun.verdict(try Self.challenge(challengeName, seed: seed), seed: seed, on: frames)
                    score.addAttack(challenge: challengeName, kind: kind, recording: name, seed: seed, verdict: verdict)
                }
            }
            progress.update(n + 1)
        }
        progress.finish()
        let genuine = try genuine()
        progress = ProgressLine(total: genuine.count, label: "genuine")
        for (n, recording) in genuine.enumerated() {
            let name = URL(fileURLWithPath: recording.directory).lastPathComponent
            for challengeName in challenges {
                for seed in 1...UInt64(genuineSeeds) {
                    let steps = try Self.challenge(challengeName, seed: seed)
                    var person = try RespondingPerson(recording: recording, seed: seed, blinksPerMinute: genuineBlinksPerMinute)
                    guard steps.steps.allSatisfy({ person.canRespond(to: $0) }) else { continue }
                    let processor = try FrameProcessor(configuration: configuration, predictor: predictor)
                    let writer = try saveGenuine.map { folder in
                        try RecordingWriter(
                            directory: URL(fileURLWithPath: folder)
                                .appendingPathComponent("\(name)-\(challengeName.replacingOccurrences(of: ":", with: "x"))-\(seed)").path,
                            info: RecordingInfo(width: recording.info.width, height: recording.info.height, fps: recording.info.fps,
                                                source: "\(name) answering \(steps) with seed \(seed), by facewatch check-eval"))
                    }
                    let verdict = try CheckRun.verdict(steps, seed: seed, person: &person, processor: processor) { frame in
                        if case .jpeg(let data) = frame.payload { try writer?.append(jpeg: data, t: frame.t) }
                    }
                    try writer?.finish()
                    score.addGenuine(challenge: challengeName, verdict: verdict)
                }
            }
            progress.update(n + 1)
        }
        progress.finish()
        return score
    }
}
