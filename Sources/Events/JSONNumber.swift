/// Writes numbers the way the event stream spells them: plain JSON numbers rounded to a fixed
/// number of decimals, deterministic on every platform.
///
/// - The value is scaled by 10^decimals and rounded half away from zero (on its binary value, so
///   0.00015 at 4 decimals, really 0.000149999…, gives 0.0001), then printed as an integer part
///   and at most `decimals` fraction digits without trailing zeros: 2.5 → `2.5`, 2.0 → `2`.
/// - Anything that rounds to zero, negative zero included, is `0` (never `-0`).
/// - Magnitudes of 9·10^15 and more after scaling are printed in Swift's shortest round-trip
///   form (`1e+20`), which is valid JSON.
/// - NaN and ±infinity are written as `null`: the key stays, so every line of a type has the same
///   keys in the same order.
public enum JSONNumber {
    /// Most decimals supported.
    public static let maxDecimals = 9

    private static let powers: [Double] = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9]
    private static let intPowers: [Int64] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000, 1_000_000_000]

    /// Appends `value` rounded to `decimals` (0...9) fraction digits.
    public static func append(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: [0x6E, 0x75, 0x6C, 0x6C])  // null
            return
        }
        let d = min(max(decimals, 0), maxDecimals)
        let scaled = (value * powers[d]).rounded(.toNearestOrAwayFromZero)
        guard abs(scaled) < 9e15 else {
            out.append(contentsOf: value.description.utf8)
            return
        }
        var n = Int64(scaled)
        if n == 0 {
            out.append(0x30)
            return
        }
        if n < 0 {
            out.append(0x2D)
            n = -n
        }
        let unit = intPowers[d]
        append(n / unit, to: &out)
        var fraction = n % unit
        guard fraction != 0 else { return }
        var digits = d
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        out.append(0x2E)
        var divisor = intPowers[digits - 1]
        while divisor > 0 {
            out.append(0x30 + UInt8(fraction / divisor % 10))
            divisor /= 10
        }
    }

    /// Appends a non-negative or negative integer.
    public static func append(_ value: Int, to out: inout [UInt8]) {
        if value < 0 {
            out.append(0x2D)
            append(UInt64(value.magnitude), to: &out)
        } else {
            append(UInt64(value), to: &out)
        }
    }

    private static func append(_ value: Int64, to out: inout [UInt8]) {
        append(UInt64(value), to: &out)
    }

    private static func append(_ value: UInt64, to out: inout [UInt8]) {
        var divisor: UInt64 = 1
        while value / divisor >= 10 { divisor *= 10 }
        while divisor > 0 {
            out.append(0x30 + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// The string `append` would write (for tests and diagnostics).
    public static func string(_ value: Double, decimals: Int) -> String {
        var out: [UInt8] = []
        append(value, decimals: decimals, to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
