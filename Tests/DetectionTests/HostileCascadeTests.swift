@testable import Detection
import Foundation
import XCTest

/// Cascade files with values that overflow the reader's arithmetic (reliability finding D4) or
/// nesting deep enough to overflow the stack (D5) are refused with a CascadeError.
final class HostileCascadeTests: XCTestCase {
    /// The installed cascade's text with the first match of `pattern` replaced.
    private func edited(_ cascade: SystemCascade, _ pattern: String, with replacement: String) throws -> [UInt8] {
        let text = try String(contentsOfFile: cascade.path, encoding: .utf8)
        let range = try XCTUnwrap(text.range(of: pattern, options: .regularExpression), pattern)
        return Array(text.replacingCharacters(in: range, with: replacement).utf8)
    }

    private func assertRefused(_ xml: [UInt8], mentioning words: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertThrowsError(try CascadeClassifier(xml: xml, path: "hostile.xml"), file: file, line: line) { error in
            let text = "\(error)"
            XCTAssertTrue(error is CascadeError, text, file: file, line: line)
            XCTAssertTrue(text.contains(words), text, file: file, line: line)
        }
    }

    func testARectangleNearIntMaxIsRefused() throws {
        let xml = try edited(.haarFrontalFaceAlt, #"<_>\s*-?\d+ -?\d+ -?\d+ -?\d+ -?[\d.e-]+</_>"#,
                             with: "<_>1 0 9223372036854775807 4 -1.</_>")
        assertRefused(xml, mentioning: "outside any detection window")
    }

    func testAChildIndexOfIntMinIsRefused() throws {
        let xml = try edited(.haarFrontalFaceAlt, #"<internalNodes>\s*-?\d+ -?\d+ "#,
                             with: "<internalNodes>\n 0 -9223372036854775808 ")
        assertRefused(xml, mentioning: "does not exist")
    }

    func testAnLBPBlockNearAThirdOfIntMaxIsRefused() throws {
        let xml = try edited(.lbpFrontalFaceImproved, #"<rect>[^<]*</rect>"#, with: "<rect>0 0 3074457345618258603 1</rect>")
        assertRefused(xml, mentioning: "outside any detection window")
    }

    func testDeepNestingIsRefusedWithoutExhaustingTheStack() {
        let depth = 100_000
        let xml = Array(("<opencv_storage>" + String(repeating: "<a>", count: depth)
            + String(repeating: "</a>", count: depth) + "</opencv_storage>").utf8)
        assertRefused(xml, mentioning: "nested deeper than \(MarkupElement.maximumDepth) levels")
    }
}
