import Config
import Events
import Pipeline
import Reports
import XCTest

final class DetectionScoreTests: XCTestCase {
    private func blink(_ start: Double, _ end: Double) -> LabeledInterval {
        LabeledInterval(type: "blink", start: start, end: end)
    }

    func testOverlapOrNearnessMatchesOneToOne() {
        let truth = [blink(1.0, 1.2), blink(2.0, 2.2), blink(2.45, 2.6), blink(5.0, 5.2)]
        let reported = [blink(1.1, 1.3),   // overlaps the first
                        blink(2.3, 2.4),   // 0.1 s after the second: matches it
                        blink(2.5, 2.55),  // inside the third
                        blink(7.0, 7.1)]   // nothing there
        let score = DetectionScore.score(reported: reported, truth: truth)
        XCTAssertEqual([score.truePositives, score.falsePositives, score.falseNegatives], [3, 1, 1])
        XCTAssertEqual(score.precision, 0.75)
        XCTAssertEqual(score.recall, 0.75)
        XCTAssertEqual(score.f1, 0.75)
    }

    func testOneReportCannotClaimTwoTruths() {
        let score = DetectionScore.score(reported: [blink(1.0, 1.3)], truth: [blink(1.0, 1.1), blink(1.2, 1.3)])
        XCTAssertEqual([score.truePositives, score.falsePositives, score.falseNegatives], [1, 0, 1])
    }

    func testTheToleranceIsAQuarterSecond() {
        XCTAssertEqual(DetectionScore.score(reported: [blink(1.44, 1.5)], truth: [blink(1.0, 1.2)]).truePositives, 1)
        XCTAssertEqual(DetectionScore.score(reported: [blink(1.46, 1.5)], truth: [blink(1.0, 1.2)]).truePositives, 0)
    }

    func testEventsOnAnUnsureStretchAreSetAsideUnlessTheyMatchATruth() {
        let mouth = { (start: Double, end: Double) in LabeledInterval(type: "mouth_open", start: start, end: end) }
        let truth = [mouth(1.0, 2.0)]
        let unsure = [mouth(1.5, 4.0), mouth(6.0, 7.0)]
        let reported = [mouth(1.2, 1.9),   // matches the truth though it touches an unsure stretch: scored
                        mouth(3.0, 3.5),   // inside the unsure stretch only: set aside
                        mouth(5.0, 5.9),   // 0.1 s before the second unsure stretch: scored (a false event)
                        mouth(6.9, 8.0)]   // overlaps the second: set aside
        let scored = Evaluation.setAsideUnsure(reported, truth: truth, unsure: unsure, tolerance: 0.25)
        XCTAssertEqual(scored, [mouth(1.2, 1.9), mouth(5.0, 5.9)])
        let score = DetectionScore.score(reported: scored, truth: truth)
        XCTAssertEqual([score.truePositives, score.falsePositives, score.falseNegatives], [1, 1, 0])
    }

    func testNothingToFindAndNothingReportedIsPerfect() {
        let score = DetectionScore.score(reported: [], truth: [])
        XCTAssertEqual(score.f1, 1)
        XCTAssertNil(score.precision, "undefined, not 1, when nothing was reported")
        XCTAssertNil(score.recall, "undefined when there was nothing to find")
        XCTAssertEqual(DetectionScore.score(reported: [blink(1, 1.1)], truth: []).f1, 0)
        let missed = DetectionScore.score(reported: [], truth: [blink(1, 1.1)])
        XCTAssertNil(missed.precision)
        XCTAssertEqual(missed.recall, 0)
    }

    func testTimingErrorsOfMatchedEvents() {
        // Starts off by +0.1, 0, -0.2 s; durations by -0.1, +0.05, 0 s; the unmatched report adds nothing.
        let truth = [blink(1.0, 1.3), blink(2.0, 2.1), blink(3.0, 3.2)]
        let reported = [blink(1.1, 1.3), blink(2.0, 2.15), blink(2.8, 3.0), blink(9, 9.1)]
        let score = DetectionScore.score(reported: reported, truth: truth)
        XCTAssertEqual(score.startErrors.count, 3)
        XCTAssertEqual(score.startError?.mean ?? 0, 0.1, accuracy: 1e-9)
        XCTAssertEqual(score.startError?.p95 ?? 0, 0.2, accuracy: 1e-9)
        XCTAssertEqual(score.durationError?.mean ?? 0, 0.05, accuracy: 1e-9)
        XCTAssertEqual(score.durationError?.p95 ?? 0, 0.1, accuracy: 1e-9)
        XCTAssertNil(DetectionScore.score(reported: [], truth: truth).startError)
        let summed = score + score
        XCTAssertEqual(summed.durationErrors.count, 6)
    }

    func testClassicRuleNeedsTwoFramesBelowPointTwoOne() {
        var rule = ClassicBlinkRule()
        let ears: [(Double, Double)] = [(0.3, 0.3), (0.2, 0.2), (0.3, 0.3),               // one frame: no blink
                                        (0.19, 0.22), (0.18, 0.2), (0.1, 0.1), (0.25, 0.3)]  // three frames, mean < 0.21
        var found: [LabeledInterval] = []
        for (i, e) in ears.enumerated() {
            if let b = rule.add(t: Double(i) / 30, earLeft: e.0, earRight: e.1) { found.append(b) }
        }
        XCTAssertEqual(found, [LabeledInterval(type: "blink", start: 3.0 / 30, end: 6.0 / 30)])
    }

    func testCollectorPairsStartsWithEndsAndClosesOpenIntervals() {
        var collector = IntervalCollector()
        let events: [Event] = [
            Event(t: 1.0, frame: 30, .smile(face: 1, state: .start, score: 0.6)),
            Event(t: 1.4, frame: 42, .blink(face: 1, start: 1.25, duration: 0.125)),
            Event(t: 2.0, frame: 60, .smile(face: 1, state: .end, score: 0.1)),
            Event(t: 2.5, frame: 75, .eyesClosed(face: 1, state: .start, start: 2.5, duration: 0)),
            Event(t: 4.0, frame: 120, .eyesClosed(face: 1, state: .end, start: 2.5, duration: 1.5)),
            Event(t: 4.5, frame: 135, .mouthOpen(face: 1, state: .start, mar: 0.6)),
            Event(t: 5.0, frame: 150, .nose(face: 1, x: 0.5, y: 0.5)),
        ]
        events.forEach { collector.add($0) }
        XCTAssertEqual(collector.finished(), [
            LabeledInterval(type: "blink", start: 1.25, end: 1.375),
            LabeledInterval(type: "smile", start: 1.0, end: 2.0),
            LabeledInterval(type: "eyes_closed", start: 2.5, end: 4.0),
            LabeledInterval(type: "mouth_open", start: 4.5, end: 5.0),
        ])
    }

    func testCollectorPairsEachFacesStartWithItsOwnEnd() {
        var collector = IntervalCollector()
        [Event(t: 0.3, frame: 9, .smile(face: 2, state: .start, score: 1.0)),
         Event(t: 1.8, frame: 54, .smile(face: 1, state: .start, score: 0.6)),
         Event(t: 3.1, frame: 93, .smile(face: 1, state: .end, score: 0.1)),
         Event(t: 3.5, frame: 105, .smile(face: 2, state: .end, score: 1.0))].forEach { collector.add($0) }
        XCTAssertEqual(collector.finished(), [
            LabeledInterval(type: "smile", start: 1.8, end: 3.1),
            LabeledInterval(type: "smile", start: 0.3, end: 3.5),
        ])
    }
}
