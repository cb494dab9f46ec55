import Foundation
import FuzzSupport
import Config

/// libFuzzer target: config.json, strictly parsed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzConfig(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    _ = try? Configuration(json: data, path: "fuzz.json")
    return 0
}

@main enum FuzzConfigMain {
    static func main() { FuzzInput.main(target: fuzzConfig) }
}
