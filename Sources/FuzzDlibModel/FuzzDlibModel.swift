import Foundation
import FuzzSupport
import Landmarks

/// libFuzzer target: the dlib model reader (`DlibDeserializer`) through the 68-point landmark
/// model (reliability finding D2: header sizes that allocate before reading).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDlibModel(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let data = FuzzInput.data(start, count)
    _ = try? ShapePredictor(serialized: data, path: "fuzz.dat")
    return 0
}

@main enum FuzzDlibModelMain {
    static func main() { FuzzInput.main(target: fuzzDlibModel) }
}
