import Reports
import XCTest

/// The columns of `facewatch eval`'s table line up under its header.
final class EvalTableTests: XCTestCase {
    func testARowHasTheHeadersWidthAndItsFigures() {
        let table = EvalTable()
        let score = DetectionScore(truePositives: 9, falsePositives: 1, falseNegatives: 0,
                                   startErrors: Array(repeating: 0.02, count: 9), durationErrors: Array(repeating: -0.01, count: 9))
        let row = table.row("blinks-slow-move", "blink", score)
        XCTAssertEqual(row.count, table.header.count)
        XCTAssertEqual(table.rule, String(repeating: "-", count: table.header.count))
        XCTAssertTrue(row.hasPrefix("blinks-slow-move            blink       "), row)
        XCTAssertTrue(row.contains("    9    1    0"), row)
        XCTAssertTrue(row.contains("0.900"), "precision: \(row)")
        XCTAssertTrue(row.contains("20/20"), "start error mean/p95 in ms: \(row)")
    }

    func testNothingReportedOrNothingToFindIsUndefined() {
        let row = EvalTable().row("no-face", "blink", DetectionScore())
        XCTAssertEqual(row.components(separatedBy: "undefined").count - 1, 2, row)
        XCTAssertTrue(row.hasSuffix("-"), "no timing without a match: \(row)")
    }
}
