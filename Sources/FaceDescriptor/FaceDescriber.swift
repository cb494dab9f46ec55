import FaceCore
import Imaging
import Landmarks

/// Frame + 68 landmarks → descriptor: dlib's `compute_face_descriptor(img, shape)` with
/// num_jitters 0 and padding 0.25. Landmarks are rounded as dlib rounds them before the chip.
/// Reuses its chip and output buffers; not thread-safe.
public final class FaceDescriber {
    public let network: DescriptorNetwork
    public private(set) var chip = FaceChip()
    private var output = [Float](repeating: 0, count: DescriptorNetwork.descriptorLength)

    public init(network: DescriptorNetwork) {
        self.network = network
    }

    /// The descriptor of the face with landmarks `shape` in `image`.
    public func describe(_ image: RGBImage, shape: FaceShape) throws -> FaceDescriptor {
        try chip.extract(from: image, points: shape.dlibRounded)
        chip.pixels.withUnsafeBufferPointer { c in
            output.withUnsafeMutableBufferPointer { network.describe(chip: c, into: $0) }
        }
        return FaceDescriptor(output)
    }
}
