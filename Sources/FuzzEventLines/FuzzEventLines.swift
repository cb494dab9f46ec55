import Foundation
import FuzzSupport
import Reports
#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer target: the event-line reader of `plot` and the SVG it draws, which must never hold
/// a non-finite coordinate (reliability finding D14).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLines(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    var svg = EventPlot(jsonLines: String(decoding: data, as: UTF8.self)).svg()
    // memmem, not String.contains: Foundation's search took most of the time per input.
    let nonFinite = svg.withUTF8 { text in
        ["inf", "nan"].contains { word in memmem(text.baseAddress, text.count, word, word.utf8.count) != nil }
    }
    if nonFinite { fatalError("non-finite coordinate in the SVG") }
    return 0
}

@main enum FuzzEventLinesMain {
    static func main() { FuzzInput.main(target: fuzzEventLines) }
}
