import Foundation
import FuzzSupport
import Imaging

/// libFuzzer target: one camera or recording frame through the decoder the pipeline uses, with
/// the default frame-size bound (reliability finding D3), in both gray conversions.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    var decoder = JPEGDecoder()
    var image = GrayImage(width: 0, height: 0)
    try? decoder.decode(data, into: &image, conversion: data.count % 2 == 0 ? .luma : .rgbMean)
    return 0
}

@main enum FuzzJPEGMain {
    static func main() { FuzzInput.main(target: fuzzJPEG) }
}
