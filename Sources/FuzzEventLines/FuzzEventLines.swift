import Foundation
import FuzzSupport
import Reports

/// libFuzzer target: the event-line reader of `plot` and the SVG it draws, which must never hold
/// a non-finite coordinate (reliability finding D14).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventLines(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    var svg = EventPlot(jsonLines: String(decoding: data, as: UTF8.self)).svg()
    if svg.withUTF8(holdsNonFinite) { fatalError("non-finite coordinate in the SVG") }
    return 0
}

/// Whether the text holds "inf" or "nan". Both have an "n": memchr finds each one and its
/// neighbours are compared (Foundation's String.contains took most of the time per input).
private func holdsNonFinite(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = text.baseAddress else { return false }
    var from = 0
    while from < text.count, let found = memchr(base + from, Int32(UInt8(ascii: "n")), text.count - from) {
        let n = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
        if n > 0, n + 1 < text.count, text[n - 1] == UInt8(ascii: "i"), text[n + 1] == UInt8(ascii: "f") { return true }
        if n + 2 < text.count, text[n + 1] == UInt8(ascii: "a"), text[n + 2] == UInt8(ascii: "n") { return true }
        from = n + 1
    }
    return false
}

@main enum FuzzEventLinesMain {
    static func main() { FuzzInput.main(target: fuzzEventLines) }
}
