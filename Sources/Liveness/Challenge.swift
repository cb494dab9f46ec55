/// The steps of one liveness check, in order: given (`--challenge blink:2,smile`) or drawn at
/// random from a seed.
public struct Challenge: Sendable, Equatable, CustomStringConvertible {
    public var steps: [ChallengeStep]

    public init(steps: [ChallengeStep]) {
        self.steps = steps
    }

    /// Parses a comma-separated list of steps; nil names the first entry that is not a step.
    public init(parsing text: String) throws {
        var steps: [ChallengeStep] = []
        for part in text.split(separator: ",") {
            guard let step = ChallengeStep(parsing: String(part)) else {
                throw ChallengeError(entry: String(part))
            }
            steps.append(step)
        }
        guard !steps.isEmpty else { throw ChallengeError(entry: text) }
        self.steps = steps
    }

    /// Two or three different kinds of step drawn from `seed`; the same seed draws the same
    /// challenge. The first step is always `blink` (one blink per cue), the one a still photo
    /// cannot do; then one or two of smile, open mouth, turns and nod. Never `blink:2`: it cannot
    /// let the person blink while holding still, so it rejects many people who blink often
    /// (docs/liveness.md), and the other steps are what stop a replay or a photo with the eyes
    /// cut out.
    public static func random(seed: UInt64) -> Challenge {
        var generator = SplitMix64(seed: seed)
        let first = ChallengeStep.blink(count: 1)
        var others = ChallengeStep.all.filter { !$0.isSameKind(as: first) }
        others.shuffle(using: &generator)
        let count = Int.random(in: 1...2, using: &generator)
        return Challenge(steps: [first] + others.prefix(count))
    }

    public var description: String { steps.map(\.description).joined(separator: ",") }
}

/// A `--challenge` entry that is not a step.
public struct ChallengeError: Error, CustomStringConvertible {
    public let entry: String

    public var description: String {
        "\"\(entry)\" is not a challenge step; steps are: blink, blink:2, smile, open_mouth, turn_left, turn_right, nod"
    }
}
