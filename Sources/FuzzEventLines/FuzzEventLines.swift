import Foundation
import FuzzSupport
import Reports

/// libFuzzer target: the event-line reader of `plot` and the SVG it draws, which must never hold
/// a non-finite coordinate (reliability finding D14).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLines(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    let svg = EventPlot(jsonLines: String(decoding: data, as: UTF8.self)).svg().utf8
    // A search over the UTF-8 bytes: Foundation's String.contains took most of the time per input.
    if svg.contains("inf".utf8) || svg.contains("nan".utf8) { fatalError("non-finite coordinate in the SVG") }
    return 0
}

@main enum FuzzEventLinesMain {
    static func main() { FuzzInput.main(target: fuzzEventLines) }
}
