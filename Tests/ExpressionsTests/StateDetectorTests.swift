import XCTest
@testable import Expressions

final class StateDetectorTests: XCTestCase {
    private func run(
        _ settings: StateSettings, fps: Double = 30, duration: Double,
        value: (Double) -> Double, yaw: (Double) -> Double = { _ in 0 }
    ) -> [(t: Double, transition: Transition, value: Double)] {
        var detector = StateDetector(settings: settings)
        var events: [(t: Double, transition: Transition, value: Double)] = []
        for i in 0..<Int((duration * fps).rounded()) {
            let t = Double(i) / fps
            detector.update(t: t, value: value(t), yaw: yaw(t), tracked: true) { events.append((t, $0, $1)) }
        }
        return events
    }

    func testSmileStartsAndEndsAfterTheMinimumDurations() {
        // Neutral ≈ 0 with noise, a smile at 0.8 from 3.0 s to 5.0 s.
        var rng = SplitMix64(seed: 1)
        let noise = (0..<240).map { _ in 0.03 * rng.gaussian() }
        let events = run(.smile, duration: 8) { t in
            let i = Int((t * 30).rounded())
            return (t >= 3.0 - 1e-9 && t < 5.0 - 1e-9 ? 0.8 : 0) + noise[i]
        }
        XCTAssertEqual(events.map(\.transition), [.start, .end])
        guard events.count == 2 else { return }
        // 0.25 s above the start threshold: frames 90 ... 97.5 → reported at frame 98 (3.2667 s).
        XCTAssertEqual(events[0].t, 98.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(events[0].value, 0.8 + noise[98], accuracy: 1e-12)
        // 0.2 s below the end threshold: frames 150 ... 156 → reported at frame 156 (5.2 s).
        XCTAssertEqual(events[1].t, 156.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(events[1].value, noise[156], accuracy: 1e-12)
    }

    func testBriefSmileIsNoEvent() {
        // 0.2 s of smile (a word widening the mouth) is shorter than the 0.25 s minimum.
        let events = run(.smile, duration: 5) { t in t >= 3.0 && t < 3.2 ? 0.9 : 0 }
        XCTAssertTrue(events.isEmpty)
    }

    func testSmileBaselineAdaptsToTheNeutralFace() {
        // A person whose neutral score is −0.3 (narrow mouth) smiles to 0.2: 0.5 above neutral.
        // With the fallback baseline 0 that would stay below the 0.35 start threshold.
        let events = run(.smile, duration: 10) { t in t >= 6 && t < 7 ? 0.2 : -0.3 }
        XCTAssertEqual(events.map(\.transition), [.start, .end])
        XCTAssertEqual(events.first?.t ?? 0, 188.0 / 30, accuracy: 1e-9, "first frame 0.25 s after 6.0 s")
        var fixed = StateSettings.smile
        fixed.warmup = .infinity
        XCTAssertTrue(run(fixed, duration: 10) { t in t >= 6 && t < 7 ? 0.2 : -0.3 }.isEmpty)
    }

    func testSustainedSmileFromTheStartIsFoundAndNotLearnedAsNeutral() {
        // Tracking starts mid-smile (0.9) for 6 s: the fallback baseline finds it, and the clamp
        // on the learned baseline (≤ 0.3) keeps it going: 0.9 > 0.3 + 0.2.
        let events = run(.smile, duration: 9) { t in t < 6 ? 0.9 : 0 }
        XCTAssertEqual(events.map(\.transition), [.start, .end])
        XCTAssertEqual(events.first?.t ?? 0, 8.0 / 30, accuracy: 1e-9)
        XCTAssertEqual(events.last?.t ?? 0, 6.2, accuracy: 1e-9)
    }

    func testMouthOpenStartAndEnd() {
        let events = run(.mouthOpen, duration: 6) { t in t >= 2 && t < 3 ? 0.6 : 0.02 }
        XCTAssertEqual(events.map(\.transition), [.start, .end])
        guard events.count == 2 else { return }
        XCTAssertEqual(events[0].t, 2.2, accuracy: 1e-9)
        XCTAssertEqual(events[0].value, 0.6)
        XCTAssertEqual(events[1].t, 95.0 / 30, accuracy: 1e-9, "first frame 0.15 s after 3.0 s")
        XCTAssertEqual(events[1].value, 0.02)
    }

    func testSpeechBurstsAndHysteresis() {
        // Talking: 0.1 s openings to 0.45 every 0.3 s never last the 0.2 s minimum.
        let talking = run(.mouthOpen, duration: 6) { t in t.truncatingRemainder(dividingBy: 0.3) < 0.1 ? 0.45 : 0.05 }
        XCTAssertTrue(talking.isEmpty)
        // Open at 0.6, then wavering between 0.25 and 0.4, above the 0.22 end threshold of the
        // learned 0.02 baseline: one start, and no end until it really closes.
        let wavering = run(.mouthOpen, duration: 8) { t in
            if t < 2 || t >= 6 { return 0.02 }
            if t < 3 { return 0.6 }
            return Int(t * 10) % 2 == 0 ? 0.25 : 0.4
        }
        XCTAssertEqual(wavering.map(\.transition), [.start, .end])
        XCTAssertEqual(wavering.last?.t ?? 0, 185.0 / 30, accuracy: 1e-9)
    }

    func testTurnedHeadEndsAnActiveSmile() {
        let events = run(.smile, duration: 6, value: { t in t >= 2 && t < 5 ? 0.8 : 0 }, yaw: { t in t >= 3 ? 55 : 0 })
        XCTAssertEqual(events.map(\.transition), [.start, .end])
        XCTAssertEqual(events.last?.t ?? 0, 3.0, accuracy: 1e-9)
        XCTAssertEqual(events.last?.value ?? 0, 0.8, "the last watched frame's score")
    }

    func testLostTrackEndsAndForgets() {
        var d = StateDetector(settings: .mouthOpen)
        var events: [Transition] = []
        for i in 0..<90 {
            let t = Double(i) / 30
            d.update(t: t, value: t >= 1.5 ? 0.7 : 0.1, yaw: 0, tracked: true) { tr, _ in events.append(tr) }
        }
        XCTAssertTrue(d.isActive)
        XCTAssertEqual(d.baseline, 0.1, accuracy: 1e-9)
        d.update(t: 3.0, value: 0, yaw: 0, tracked: false) { tr, _ in events.append(tr) }
        XCTAssertEqual(events, [.start, .end])
        XCTAssertFalse(d.isActive)
        XCTAssertEqual(d.baseline, StateSettings.mouthOpen.fallbackBaseline)
    }
}
