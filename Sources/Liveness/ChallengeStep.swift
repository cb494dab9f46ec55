import Foundation

/// One thing the person is asked to do.
public enum ChallengeStep: Sendable, Equatable, CustomStringConvertible {
    /// Blink `count` times (1 or 2).
    case blink(count: Int)
    case smile
    case openMouth
    /// Turn the head to the person's own left / right.
    case turnLeft
    case turnRight
    /// Nod: look down and back up.
    case nod

    /// Every kind of step.
    public static let all: [ChallengeStep] = [.blink(count: 1), .blink(count: 2), .smile, .openMouth, .turnLeft, .turnRight, .nod]

    /// Parses `blink`, `blink:2`, `smile`, `open_mouth`, `turn_left`, `turn_right`, `nod`.
    public init?(parsing text: String) {
        switch text.trimmingCharacters(in: .whitespaces) {
        case "blink", "blink:1": self = .blink(count: 1)
        case "blink:2": self = .blink(count: 2)
        case "smile": self = .smile
        case "open_mouth", "mouth_open": self = .openMouth
        case "turn_left": self = .turnLeft
        case "turn_right": self = .turnRight
        case "nod": self = .nod
        default: return nil
        }
    }

    /// The name used in prompts and verdicts.
    public var description: String {
        switch self {
        case .blink(let count): return count == 1 ? "blink" : "blink:\(count)"
        case .smile: return "smile"
        case .openMouth: return "open_mouth"
        case .turnLeft: return "turn_left"
        case .turnRight: return "turn_right"
        case .nod: return "nod"
        }
    }

    /// The same kind of action (blinks of any count are one kind).
    func isSameKind(as other: ChallengeStep) -> Bool {
        switch (self, other) {
        case (.blink, .blink): return true
        default: return self == other
        }
    }
}
