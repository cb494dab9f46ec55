import Foundation
import FuzzSupport
import Detection

/// libFuzzer target: OpenCV cascade XML (reliability findings D4, D5: integer overflow, nesting).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCascade(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    _ = try? CascadeClassifier(xml: [UInt8](data), path: "fuzz.xml")
    return 0
}

@main enum FuzzCascadeMain {
    static func main() { FuzzInput.main(target: fuzzCascade) }
}
