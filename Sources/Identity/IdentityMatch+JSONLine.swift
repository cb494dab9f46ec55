import Events
import Foundation

extension IdentityMatch {
    /// The `identity` JSON line of this match (`facewatch verify`), line break included:
    /// `source` is the photo or recording described.
    public func jsonLine(source: String) -> String {
        var out: [UInt8] = Array(#"{"type":"identity""#.utf8)
        out += Array(#","source":"#.utf8)
        JSONString.append(source, to: &out)
        out += Array(#","name":"#.utf8)
        JSONString.append(name, to: &out)
        out += Array(#","distance":"#.utf8)
        JSONNumber.append(distance, decimals: 4, to: &out)
        out += Array(#","threshold":"#.utf8)
        JSONNumber.append(threshold, decimals: 4, to: &out)
        out += Array(",\"match\":\(match)}\n".utf8)
        return String(decoding: out, as: UTF8.self)
    }

    /// The closing `verify` JSON line of a stream (`facewatch verify --replay` or `--device`),
    /// line break included: this match, of the median distance over `frames` good frames.
    public func verifyLine(frames: Int) -> String {
        "{\"type\":\"verify\",\"name\":\(JSONString.literal(name)),\"frames\":\(frames),"
            + "\"distance\":\(String(format: "%.4f", distance)),\"threshold\":\(threshold),\"match\":\(match)}\n"
    }

}
