import Events

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
}
