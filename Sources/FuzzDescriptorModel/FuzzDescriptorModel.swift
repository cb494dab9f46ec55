import FaceDescriptor
import Foundation
import FuzzSupport

/// libFuzzer target: the face recognition ResNet model reader (`DescriptorNetwork(serialized:path:)`:
/// dlib's serialized `anet_type` through `DlibDeserializer`: layer names, versions, tensors, alias
/// tensors). Inputs are at most 20 KB (`Scripts/fuzz-long`), so the fuzzer explores the loss
/// layer, the wrappers' versions, the input layer and the first layers of the 22 MB network.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDescriptorModel(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    _ = try? DescriptorNetwork(serialized: FuzzInput.data(start, count), path: "fuzz.dat")
    return 0
}

@main enum FuzzDescriptorModelMain {
    static func main() { FuzzInput.main(target: fuzzDescriptorModel) }
}
