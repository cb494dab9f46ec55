import XCTest
@testable import Events

final class JSONNumberTests: XCTestCase {
    func testFormatting() {
        let cases: [(Double, Int, String)] = [
            (0, 3, "0"),
            (-0.0, 3, "0"),  // never "-0"
            (1e-9, 4, "0"),  // very small
            (-0.00004, 4, "0"),  // rounds to negative zero
            (-0.00006, 4, "-0.0001"),
            (2.0, 3, "2"),  // no trailing zeros, no dot
            (2.5, 3, "2.5"),
            (0.1, 9, "0.1"),
            (-12.3456, 2, "-12.35"),
            (0.999996, 5, "1"),  // carry into the integer part
            (-0.5, 0, "-1"),  // half away from zero
            (1.005, 2, "1"),  // the binary value is 1.00499999…
            (123456789.123, 2, "123456789.12"),
            (9_007_199.254, 3, "9007199.254"),
            (Double.leastNonzeroMagnitude, 9, "0"),
            (8.999e12, 3, "8999000000000"),  // just below the integer-digits limit
            (1e20, 3, "1e+20"),  // large: Swift's shortest form, still a JSON number
            (-1e20, 0, "-1e+20"),
            (Double.greatestFiniteMagnitude, 0, "1.7976931348623157e+308"),
            (.nan, 3, "null"),
            (.infinity, 3, "null"),
            (-.infinity, 2, "null"),
        ]
        for (value, decimals, expected) in cases {
            XCTAssertEqual(JSONNumber.string(value, decimals: decimals), expected, "\(value) at \(decimals)")
        }
    }

    func testLargeForms() throws {
        // Whatever form is chosen for a magnitude, JSON parsers read it back as the same number.
        for value in [1e20, -1e20, Double.greatestFiniteMagnitude, 8.999e12, 123456789.12] {
            let text = JSONNumber.string(value, decimals: 2)
            let parsed = try JSONSerialization.jsonObject(with: Data("[\(text)]".utf8)) as? [NSNumber]
            XCTAssertEqual(parsed?.first?.doubleValue, value, text)
        }
    }

    func testIntegers() {
        var out: [UInt8] = []
        for v in [0, 7, -7, 1_000_000, Int.max, Int.min] {
            out.removeAll()
            JSONNumber.append(v, to: &out)
            XCTAssertEqual(String(decoding: out, as: UTF8.self), String(v))
        }
    }
}
