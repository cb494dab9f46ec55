import FaceDescriptor
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

    func testTheVerdictOfAStreamIsItsMedianDistance() throws {
        let matches = [0.7, 0.3, 0.5, 0.2].map { IdentityMatch(name: "ada", distance: $0, threshold: 0.6) }
        let verdict = try XCTUnwrap(IdentityMatch(medianOf: matches))
        XCTAssertEqual(verdict, IdentityMatch(name: "ada", distance: 0.5, threshold: 0.6), "the upper median of an even count")
        XCTAssertNil(IdentityMatch(medianOf: []))
    }

    func testTheVerifyLineIsJSONEvenForAPhotoPathAsTheName() throws {
        let path = "ids/\"card\".jpg"
        let line = IdentityMatch(name: path, distance: 0.65, threshold: 0.6).verifyLine(frames: 3)
        XCTAssertTrue(line.hasSuffix("}\n"))
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        XCTAssertEqual(object["type"] as? String, "verify")
        XCTAssertEqual(object["name"] as? String, path)
        XCTAssertEqual(object["frames"] as? Int, 3)
        XCTAssertEqual(object["match"] as? Bool, false)
        XCTAssertEqual(IdentityMatch(name: "ada", distance: 0.1, threshold: 0.6).verifyLine(frames: 1),
                       #"{"type":"verify","name":"ada","frames":1,"distance":0.1000,"threshold":0.6,"match":true}"# + "\n")
    }

    func testTheEnrolledLineEscapesTheStorePath() throws {
        let identity = Identity(name: "ada", enrolledAt: 0, descriptors: [FaceDescriptor(Array(repeating: 0, count: 128))])
        let store = "/home/a \"b\"/identities.json"
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(identity.enrolledLine(store: store).utf8)) as? [String: Any])
        XCTAssertEqual(object["type"] as? String, "enrolled")
        XCTAssertEqual(object["descriptors"] as? Int, 1)
        XCTAssertEqual(object["store"] as? String, store)
    }
}
