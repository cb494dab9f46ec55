import FaceCore
import FaceDescriptor
import Foundation
import Imaging
import Recordings

/// Describes a tracked face in a frame: decodes the frame in colour (only frames used for
/// identity pay for it), builds dlib's chip from the face's landmarks and runs the network.
/// A gray frame (YUYV/GREY camera) is described from its gray values in all three channels.
public final class FrameDescriber {
    public let describer: FaceDescriber
    private var decoder = JPEGDecoder()

    public init(network: DescriptorNetwork) {
        describer = FaceDescriber(network: network)
    }

    /// The frame in colour.
    public func colour(_ frame: Frame) throws -> RGBImage {
        switch frame.payload {
        case .jpeg(let data): return try decoder.decodeRGB(data)
        case .gray(let gray): return RGBImage(gray: gray)
        }
    }

    public func describe(_ frame: Frame, face: FaceObservation) throws -> FaceDescriptor {
        try describer.describe(try colour(frame), shape: face.shape)
    }
}
