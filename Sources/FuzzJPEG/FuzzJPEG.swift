import Foundation
import FuzzSupport
import Imaging

/// libFuzzer target: one camera or recording frame through the decoder the pipeline uses, with
/// the default frame-size bound (reliability finding D3), in both gray conversions; then, as a
/// tracked frame is decoded, a region of it (chosen from the input's last bytes) into the image of
/// the whole decode, or into an image of the header's size when that failed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEG(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    var decoder = JPEGDecoder()
    var image = GrayImage(width: 0, height: 0)
    if (try? decoder.decode(data, into: &image, conversion: data.count % 2 == 0 ? .luma : .rgbMean)) == nil {
        guard let (width, height) = try? decoder.size(of: data), width <= 2048, height <= 2048 else { return 0 }
        image = GrayImage(width: width, height: height)
    }
    let tail = Array(data.suffix(4)) + [0, 0, 0, 0]
    let x = Int(tail[0]) * image.width / 256 - 8, y = Int(tail[1]) * image.height / 256 - 8
    let region = PixelRegion(x: x, y: y, width: Int(tail[2]) * 4, height: Int(tail[3]) * 4)
    _ = try? decoder.decodeLuma(data, into: &image, region: region)
    return 0
}

@main enum FuzzJPEGMain {
    static func main() { FuzzInput.main(target: fuzzJPEG) }
}
