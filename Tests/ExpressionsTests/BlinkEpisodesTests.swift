import Foundation
import XCTest

@testable import Expressions

/// Parity with the Python reference of the learned blink decision: Tests/Fixtures/expressions/
/// learned-blinks.json holds the per-frame EARs and yaw `facewatch replay --frames` gives for a
/// committed real recording, and the candidates, features and probabilities that
/// Scripts/train_blink_model.py's `Stream` and scikit-learn's logistic regression computed from
/// them.
final class BlinkEpisodesTests: XCTestCase {
    private struct Fixture: Decodable {
        struct Candidate: Decodable {
            var start: Double
            var end: Double
            var t_min: Double
            var features: [Double]
            var p: Double
            var jitter: Double
            var turn: Double
            var blink: Bool
        }

        var recording: String
        var frames: [[Double?]]
        var candidates: [Candidate]
    }

    private func fixture(filePath: String = #filePath) throws -> Fixture {
        let url = URL(fileURLWithPath: filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/expressions/learned-blinks.json").standardized
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url))
    }

    /// The candidates of the fixture's frames, as the tracker feeds them (a frame without a face
    /// or turned beyond `maxYaw` counts as lost).
    private func candidates(_ f: Fixture) -> [BlinkCandidate] {
        var episodes = BlinkEpisodes()
        var found: [BlinkCandidate] = []
        let maxYaw = BlinkSettings().maxYaw
        for frame in f.frames {
            if let t = frame[0], let left = frame[1], let right = frame[2], let yaw = frame[3], abs(yaw) <= maxYaw {
                episodes.update(t: t, earLeft: left, earRight: right, yaw: yaw) { found.append($0) }
            } else {
                episodes.lost { found.append($0) }
            }
        }
        episodes.lost { found.append($0) }
        return found
    }

    func testCandidatesAndFeaturesMatchThePythonReference() throws {
        let f = try fixture()
        let found = candidates(f)
        XCTAssertGreaterThan(f.candidates.count, 3, "the fixture should hold several candidates")
        XCTAssertEqual(found.count, f.candidates.count)
        for (mine, theirs) in zip(found, f.candidates) {
            XCTAssertEqual(mine.start, theirs.start, accuracy: 1e-9)
            XCTAssertEqual(mine.end, theirs.end, accuracy: 1e-9)
            XCTAssertEqual(mine.lowest, theirs.t_min, accuracy: 1e-9)
            XCTAssertEqual(mine.jitter, theirs.jitter, accuracy: 1e-9)
            XCTAssertEqual(mine.turn, theirs.turn, accuracy: 1e-9)
            XCTAssertEqual(theirs.features.count, BlinkModel.featureCount)
            for k in 0..<BlinkModel.featureCount {
                XCTAssertEqual(mine.features[k], theirs.features[k], accuracy: 1e-9, "feature \(k) at t \(theirs.t_min)")
            }
        }
    }

    func testProbabilitiesAndDecisionsMatchScikitLearn() throws {
        let f = try fixture()
        let learned = LearnedBlinks()
        for (mine, theirs) in zip(candidates(f), f.candidates) {
            XCTAssertEqual(learned.model.probability(of: mine.features), theirs.p, accuracy: 1e-9, "at t \(theirs.t_min)")
            XCTAssertEqual(learned.isBlink(mine), theirs.blink, "at t \(theirs.t_min)")
        }
        XCTAssertTrue(f.candidates.contains { $0.blink } && f.candidates.contains { !$0.blink },
                      "the fixture should hold candidates of both kinds")
    }

    func testPercentileInterpolatesBetweenRanksAsNumpy() {
        // numpy.percentile([3, 1, 4, 1, 5, 9, 2, 6, 5, 3], 90) == 6.3
        var values: [Double] = [3, 1, 4, 1, 5, 9, 2, 6, 5, 3]
        let p = values.withUnsafeMutableBufferPointer { BlinkEpisodes.percentile($0, count: 10, quantile: 0.9) }
        XCTAssertEqual(p, 6.3, accuracy: 1e-12)
        var one: [Double] = [0.25]
        XCTAssertEqual(one.withUnsafeMutableBufferPointer { BlinkEpisodes.percentile($0, count: 1, quantile: 0.9) }, 0.25)
    }
}
