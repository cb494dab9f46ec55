import ArgumentParser
import Config
import Foundation
import Landmarks
import Liveness
import LivenessEvaluation
import Pipeline
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

    @Option(help: "Write each genuine presentation here as a recording (NAME-CHALLENGE-SEED), for `check --replay --seed`.")
    var saveGenuine: String?

    @OptionGroup var options: ConfigOptions

    func validate() throws {
        guard !attacks.isEmpty || !genuine.isEmpty else { throw ValidationError("give --attacks and/or --genuine recordings") }
        guard (0...3600).contains(attackSeconds) else { throw ValidationError("--attack-seconds must be from 0 to 3600") }
        guard (1...1000).contains(seeds), (1...1000).contains(genuineSeeds) else {
            throw ValidationError("--seeds and --genuine-seeds must be from 1 to 1000")
        }
        for name in challengeNames where name != "random" {
            _ = try Challenge(parsing: name)
        }
    }

    private var challengeNames: [String] { challenges.split(separator: ",").map(String.init) }

    private func challenge(_ name: String, seed: UInt64) throws -> Challenge {
        name == "random" ? Challenge.random(seed: seed) : try Challenge(parsing: name)
    }

    mutating func run() throws {
        let configuration = try options.load()
        let predictor = try ShapePredictor(contentsOf: configuration.landmarkModel, cache: configuration.landmarkCache)
        var score = PresentationScore()
        let attackRecordings = try Self.recordings(in: attacks)
        var progress = ProgressLine(total: attackRecordings.count, label: "attacks")
        for (n, recording) in attackRecordings.enumerated() {
            var source = RecordingSource(recording: recording, loops: CheckRun.loops(recording, toLast: attackSeconds))
            let frames = try CheckRun.process(&source, with: FrameProcessor(configuration: configuration, predictor: predictor))
            let name = URL(fileURLWithPath: recording.directory).lastPathComponent
            let kind = recording.truth?.attack ?? "replay"
            for challengeName in challengeNames {
                for seed in 1...UInt64(seeds) {
                    let verdict = CheckRun.verdict(try challenge(challengeName, seed: seed), seed: seed, on: frames)
                    score.addAttack(challenge: challengeName, kind: kind, recording: name, seed: seed, verdict: verdict)
                }
            }
            progress.update(n + 1)
        }
        progress.finish()
        let people = try Self.recordings(in: genuine)
        progress = ProgressLine(total: people.count, label: "genuine")
        for (n, recording) in people.enumerated() {
            let name = URL(fileURLWithPath: recording.directory).lastPathComponent
            for challengeName in challengeNames {
                for seed in 1...UInt64(genuineSeeds) {
                    let steps = try challenge(challengeName, seed: seed)
                    var person = try RespondingPerson(recording: recording, seed: seed)
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
        print(score.table(challenges: challengeNames))
    }

    /// The recordings named: each folder with a recording.json, or else the recordings in it. A
    /// path that is not a folder, or a folder without a recording, is a usage error naming it.
    static func recordings(in paths: [String]) throws -> [Recording] {
        var found: [Recording] = []
        for path in paths {
            let url = URL(fileURLWithPath: path)
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
                throw ValidationError("\(path): not a folder")
            }
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("recording.json").path) {
                found.append(try Recording(directory: path))
                continue
            }
            let children = (try? FileManager.default.contentsOfDirectory(atPath: path).sorted()) ?? []
            let inside = children.filter {
                FileManager.default.fileExists(atPath: url.appendingPathComponent($0).appendingPathComponent("recording.json").path)
            }
            guard !inside.isEmpty else { throw ValidationError("\(path): no recording in it (no recording.json here or one folder down)") }
            for child in inside { found.append(try Recording(directory: url.appendingPathComponent(child).path)) }
        }
        return found
    }
}
