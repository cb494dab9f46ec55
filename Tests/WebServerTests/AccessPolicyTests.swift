import WebServer
import XCTest

/// Who may use the web server: loopback without a token, anything else only with one, and then
/// only requests that carry it.
final class AccessPolicyTests: XCTestCase {
    func testLoopbackNeedsNoToken() throws {
        let policy = try AccessPolicy(bind: "127.0.0.1:8080", token: nil)
        XCTAssertEqual(policy.host, "127.0.0.1")
        XCTAssertEqual(policy.port, 8080)
        XCTAssertTrue(policy.allows(authorization: nil, cookie: nil))
        XCTAssertNoThrow(try AccessPolicy(bind: "[::1]:9000", token: nil))
        XCTAssertNoThrow(try AccessPolicy(bind: "localhost:0", token: nil))
    }

    func testAnyOtherAddressWithoutATokenIsRefused() {
        for bind in ["0.0.0.0:8080", "192.168.1.20:8080", "[::]:8080", "example.org:80", "127.0.0.1.evil:80"] {
            XCTAssertThrowsError(try AccessPolicy(bind: bind, token: nil), bind) { error in
                XCTAssertTrue("\(error)".contains("needs --token or http.token"), "\(error)")
            }
        }
        XCTAssertNoThrow(try AccessPolicy(bind: "0.0.0.0:8080", token: "s3cret"))
    }

    func testMalformedBindAddressesAreRejected() {
        for bind in ["8080", "127.0.0.1", "127.0.0.1:http", ":8080", "127.0.0.1:70000"] {
            XCTAssertThrowsError(try AccessPolicy(bind: bind, token: nil), bind)
        }
        XCTAssertThrowsError(try AccessPolicy(bind: "127.0.0.1:1", token: ""))
    }

    func testWithATokenOnlyRequestsCarryingItPass() throws {
        let policy = try AccessPolicy(bind: "0.0.0.0:8080", token: "s3cret")
        XCTAssertFalse(policy.allows(authorization: nil, cookie: nil))
        XCTAssertTrue(policy.allows(authorization: "Bearer s3cret", cookie: nil))
        XCTAssertTrue(policy.allows(authorization: nil, cookie: "s3cret"))
        XCTAssertTrue(policy.allows(authorization: nil, cookie: nil, query: "s3cret"))
        XCTAssertFalse(policy.allows(authorization: "Bearer s3cre", cookie: nil))
        XCTAssertFalse(policy.allows(authorization: "Bearer s3cret2", cookie: nil))
        XCTAssertFalse(policy.allows(authorization: "Basic s3cret", cookie: nil))
        XCTAssertFalse(policy.allows(authorization: "Bearer wrong", cookie: "wrong", query: ""))
        // A token on loopback is enforced too.
        XCTAssertFalse(try AccessPolicy(bind: "127.0.0.1:8080", token: "t").allows(authorization: nil, cookie: nil))
    }
}
