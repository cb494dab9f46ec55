import Foundation
import FuzzSupport
import HOGDetection
import Imaging

/// A 48×48 frame with a bright square: a model that loads is run on it, so a file that parses but
/// holds values the scan cannot take is found too.
private let frame = GrayImage(width: 48, height: 48,
                              pixels: (0..<48 * 48).map { ($0 % 48 / 12 + $0 / 48 / 12) % 2 == 0 ? 40 : 220 })

/// libFuzzer target: the HOG face detector model reader (`FrontalFaceDetector(serialized:path:)`,
/// dlib's `object_detector<scan_fhog_pyramid<pyramid_down<6>>>` through `DlibDeserializer`), and
/// one detection with every model that loads.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDetectorModel(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    guard let detector = try? FrontalFaceDetector(serialized: FuzzInput.data(start, count), path: "fuzz.dat") else {
        return 0
    }
    _ = detector.detect(frame)
    return 0
}

@main enum FuzzDetectorModelMain {
    static func main() { FuzzInput.main(target: fuzzDetectorModel) }
}
