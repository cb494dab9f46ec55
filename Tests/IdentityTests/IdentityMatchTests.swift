import Foundation
import Identity
import XCTest

/// `facewatch verify`'s `identity` lines.
final class IdentityMatchTests: XCTestCase {
    func testTheLineIsOneJSONObjectWithItsSourceEscaped() throws {
        let match = IdentityMatch(name: "ada", distance: 0.41234, threshold: 0.6)
        let source = "photos/\"ada\" at\twork.jpg"
        let line = match.jsonLine(source: source)
        XCTAssertTrue(line.hasSuffix("}\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["type"] as? String, "identity")
        XCTAssertEqual(object["source"] as? String, source)
        XCTAssertEqual(object["name"] as? String, "ada")
        XCTAssertEqual(try XCTUnwrap(object["distance"] as? Double), 0.4123, accuracy: 1e-9)
        XCTAssertEqual(object["match"] as? Bool, true)
        XCTAssertEqual(IdentityMatch(name: "ada", distance: 0.6, threshold: 0.6).jsonLine(source: "x").contains(#""match":false"#), true)
    }
}
