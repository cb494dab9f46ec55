import FaceCore
import Foundation
import XCTest

@testable import Expressions

/// The learned decision inside `ExpressionTracker`, on the fixture's real EARs: it only adds.
final class LearnedBlinksTests: XCTestCase {
    private func events(learned: Bool) throws -> [ExpressionEvent] {
        struct Frames: Decodable { var frames: [[Double?]] }
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/expressions/learned-blinks.json").standardized
        let frames = try JSONDecoder().decode(Frames.self, from: Data(contentsOf: url)).frames
        var settings = ExpressionSettings()
        settings.blink.learned = learned
        var tracker = ExpressionTracker(settings: settings)
        var out: [ExpressionEvent] = []
        for f in frames {
            guard let t = f[0] else { continue }
            if let left = f[1], let right = f[2], let yaw = f[3] {
                let m = FaceMeasures(earLeft: left, earRight: right, mar: 0, smile: 0, nose: .zero,
                                     pose: HeadPose(yaw: yaw, pitch: 0, roll: 0))
                tracker.update(m, t: t) { out.append($0) }
            } else {
                tracker.lost(t: t) { out.append($0) }
            }
        }
        return out
    }

    private func span(_ e: ExpressionEvent) -> ClosedRange<Double>? {
        switch e {
        case .blink(let start, let duration), .wink(_, let start, let duration), .eyesClosed(.end, let start, let duration):
            return start...(start + duration)
        default:
            return nil
        }
    }

    func testItKeepsEveryStateMachineEventAndAddsOnlyBlinksOverNoneOfThem() throws {
        let alone = try events(learned: false)
        let with = try events(learned: true)
        XCTAssertGreaterThan(alone.filter { if case .blink = $0 { return true } else { return false } }.count, 1,
                             "the state machine finds this person's blinks")
        var rest = with
        for e in alone {
            guard let i = rest.firstIndex(of: e) else { return XCTFail("\(e) is missing with the learned decision") }
            rest.remove(at: i)
        }
        let stateSpans = alone.compactMap(span)
        for e in rest {
            guard case .blink = e, let s = span(e) else { return XCTFail("the learned decision added \(e)") }
            XCTAssertFalse(stateSpans.contains { $0.overlaps(s) }, "\(e) overlaps a state machine event")
        }
    }
}
