import Foundation
import Reports
import XCTest

/// `plot` on event files with extreme times (reliability finding D14) and garbage lines.
final class HostilePlotTests: XCTestCase {
    private func frameLine(_ t: String) -> String {
        #"{"type":"frame","t":\#(t),"frame":1,"faces":[{"face":1,"ear_left":0.3,"ear_right":0.31,"mar":0.1,"smile":0.2}]}"#
    }

    func testExtremeTimesNeverBecomeNonFiniteCoordinates() {
        var lines = (0..<60).map { frameLine("\(Double($0) / 30)") }
        lines.insert(frameLine("1e308"), at: 30)
        lines.insert(frameLine("-1e308"), at: 10)
        lines.insert(#"{"type":"face_found","t":1e308,"frame":1,"face":1}"#, at: 5)
        lines.insert("not json at all", at: 3)
        let plot = EventPlot(jsonLines: lines.joined(separator: "\n"))
        XCTAssertEqual(plot.frameCount, 60)
        XCTAssertEqual(plot.skippedLines, 4)
        let svg = plot.svg()
        for word in ["inf", "nan"] { XCTAssertFalse(svg.lowercased().contains(word), word) }
    }

    func testALongSpanHasBoundedTicks() {
        let plot = EventPlot(jsonLines: [frameLine("0"), frameLine("900000000")].joined(separator: "\n"))
        let ticks = plot.svg().components(separatedBy: "<line ").count - 1
        XCTAssertLessThanOrEqual(ticks, 3 * 61)
        XCTAssertGreaterThan(ticks, 0)
    }
}
