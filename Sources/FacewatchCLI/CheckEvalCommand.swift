import ArgumentParser
import Liveness
import LivenessEvaluation
import Recordings

/// `facewatch check-eval`: scores the liveness check against presentation attacks (APCER per
/// attack kind) and genuine responses (BPCER), for every challenge kind, as ISO/IEC 30107-3 asks.
struct CheckEvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-eval",
        abstract: "Score `check` against attack recordings (APCER) and people answering its cues (BPCER), per challenge.",
        discussion: """
            Every --attacks recording is replayed into a check of each challenge with each seed (an attack does not \
            see the cues: a replayed video, a screen, a printed photo). Its kind is truth.json's `attack` field, or \
            `replay` for a plain recording of a person. Every --genuine recording (with blinks, smiles or open mouths \
            annotated in truth.json) is played as that person answering each cue after a reaction time \
            (RespondingPerson), and must pass. A folder that is not a recording stands for the recordings in it.
            """
    )

    @Option(name: .customLong("attacks"), parsing: .upToNextOption, help: "Attack recordings (or folders of them).")
    var attacks: [String] = []

    @Option(name: .customLong("genuine"), parsing: .upToNextOption, help: "Recordings of people, played as answering the cues.")
    var genuine: [String] = []

    @Option(help: "Challenges scored, comma-separated; `random` draws one per seed.")
    var challenges: String = "blink,blink:2,smile,open_mouth,turn_left,turn_right,nod,random"

    @Option(help: "Seeds per attack recording and challenge.")
    var seeds: Int = 20

    @Option(help: "Attack recordings shorter than this many seconds are looped to last it (an attacker replays for as long as the check runs).")
    var attackSeconds: Double = 30

    @Option(help: "Seeds per genuine recording and challenge.")
    var genuineSeeds: Int = 5

    @Option(help: "Blinks a minute each genuine person makes on their own, at random times, while holding still too (people blink 15–20 times a minute at rest, fewer watching a screen). 0: none.")
    var genuineBlinksPerMinute: Double = 0

    @Option(help: "Write each genuine presentation here as a recording (NAME-CHALLENGE-SEED), for `check --replay --seed`.")
    var saveGenuine: String?

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        guard !attacks.isEmpty || !genuine.isEmpty else { throw ValidationError("give --attacks and/or --genuine recordings") }
        guard (0...3600).contains(attackSeconds) else { throw ValidationError("--attack-seconds must be from 0 to 3600") }
        guard (1...1000).contains(seeds), (1...1000).contains(genuineSeeds) else {
            throw ValidationError("--seeds and --genuine-seeds must be from 1 to 1000")
        }
        guard (0...60).contains(genuineBlinksPerMinute) else { throw ValidationError("--genuine-blinks-per-minute must be from 0 to 60") }
        for name in challengeNames where name != "random" {
            _ = try Challenge(parsing: name)
        }
    }

    private var challengeNames: [String] { challenges.split(separator: ",").map(String.init) }

    mutating func run() throws {
        let evaluation = CheckEvaluation(challenges: challengeNames, seeds: seeds, genuineSeeds: genuineSeeds,
                                         attackSeconds: attackSeconds, genuineBlinksPerMinute: genuineBlinksPerMinute,
                                         saveGenuine: saveGenuine)
        let score = try evaluation.run(attacks: { try Self.recordings(in: attacks) }, genuine: { try Self.recordings(in: genuine) },
                                       configuration: options.load())
        print(score.table(challenges: challengeNames))
    }

    /// The recordings named: each folder with a recording.json, or else the recordings in it. A
    /// path that is not a folder, or a folder without a recording, is a usage error naming it.
    static func recordings(in paths: [String]) throws -> [Recording] {
        var found: [Recording] = []
        for path in paths {
            let folders: [String]
            do {
                folders = try Recording.folders(in: path)
            } catch {
                throw ValidationError("\(error)")
            }
            for folder in folders { found.append(try Recording(directory: folder)) }
        }
        return found
    }
}
