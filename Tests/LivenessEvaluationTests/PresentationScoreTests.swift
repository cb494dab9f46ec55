@testable import Liveness
import LivenessEvaluation
import XCTest

final class PresentationScoreTests: XCTestCase {
    private func verdict(_ passed: Bool, _ reason: FailureReason? = nil) throws -> CheckVerdict {
        let challenge = try Challenge(parsing: "blink")
        return CheckVerdict(passed: passed, reason: reason, t: 1, frame: 30, face: 1, challenge: challenge,
                            steps: [StepResult(step: .blink(count: 1), promptT: 1)], microMotion: 0)
    }

    func testRatesPerKindAndOverall() throws {
        var score = PresentationScore()
        for n in 0..<10 { score.addAttack(challenge: "blink", kind: "replay", recording: "a", seed: UInt64(n), verdict: try verdict(n == 0)) }
        for n in 0..<5 { score.addAttack(challenge: "blink", kind: "photo-held", recording: "b", seed: UInt64(n), verdict: try verdict(false)) }
        for n in 0..<4 { score.addGenuine(challenge: "blink", verdict: try verdict(n != 0, n == 0 ? .timeout : nil)) }
        XCTAssertEqual(score.attacks["blink"]?["replay"], PresentationScore.Tally(accepted: 1, total: 10))
        XCTAssertEqual(score.apcer("blink"), PresentationScore.Tally(accepted: 1, total: 15))
        XCTAssertEqual(score.bpcer("blink"), PresentationScore.Tally(accepted: 1, total: 4))
        XCTAssertEqual(score.kinds, ["photo-held", "replay"])
        let table = score.table(challenges: ["blink"])
        XCTAssertTrue(table.contains("0/5 0.0%"), table)
        XCTAssertTrue(table.contains("1/10 10.0%"), table)
        XCTAssertTrue(table.contains("1/4 25.0%"), table)
        XCTAssertTrue(table.contains("genuine rejected, blink: 1 timeout in blink"), table)
        XCTAssertTrue(table.contains("attacks accepted, blink: a seed 0 (replay)"), table)
    }
}
