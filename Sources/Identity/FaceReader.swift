import FaceDescriptor
import Events
import Foundation
import Pipeline
import Recordings

/// Finds the one face in a photo or in a stream's frames (with the daemon's own detector,
/// tracker and landmarks) and describes it.
public final class FaceReader {
    public let processor: FrameProcessor
    public let describer: FrameDescriber
    public var quality = EnrolmentQuality()

    public init(processor: FrameProcessor, network: DescriptorNetwork) {
        self.processor = processor
        describer = FrameDescriber(network: network)
    }

    /// A second face whose box has at least this share of the main face's area makes a photo
    /// ambiguous (two people); a smaller one is ignored.
    public static let comparableArea = 0.5

    /// The descriptor of the main face in a JPEG photo (an ID photo, an enrolment photo): the
    /// largest, when every other face is less than `comparableArea` of its size.
    public func describePhoto(_ jpeg: Data, path: String, checkQuality: Bool = false) throws -> FaceDescriptor {
        processor.forgetFaces()
        // Up to three looks: the tracker tries a tilted head on the later ones.
        var result: FrameResult?
        for look in 0..<3 {
            result = processor.process(Frame(index: look, t: Double(look), payload: .jpeg(jpeg))) { _ in }
            if result?.faces.isEmpty == false || processor.badFrames > 0 { break }
        }
        guard processor.badFrames == 0, let result else { throw IdentityError.face("\(path): not a readable JPEG") }
        guard let face = result.faces.max(by: { $0.box.area < $1.box.area }) else {
            throw IdentityError.face("\(path): no face found")
        }
        // The main face, unless another is of comparable size: an identity card's small ghost
        // portrait, or a small false box on a portrait, is not a second person to choose between.
        let others = (result.faces.map { $0.box } + result.detections.map { $0.box }).filter { $0.iou(face.box) <= 0.3 }
        guard others.allSatisfy({ Double($0.area) < Self.comparableArea * Double(face.box.area) }) else {
            throw IdentityError.face("\(path): more than one face of about the same size; use a photo of one person")
        }
        let frame = Frame(index: 0, t: 0, payload: .jpeg(jpeg))
        let descriptor = try describer.describe(frame, face: face)
        if checkQuality, let problem = quality.problem(with: face, chip: describer.describer.chip) {
            throw IdentityError.face("\(path): the face is \(problem)")
        }
        return descriptor
    }

    /// Reads frames until `count` good frames of one face (frontal, eyes open, sharp, at least
    /// `spacing` seconds apart) are described, or the source ends. `observe` sees what the
    /// processor made of every frame, with its events, and returns false to stop early.
    public func sample(_ source: inout some FrameSource, count: Int, spacing: Double = 0.2,
                       observe: (FrameResult, [Event]) -> Bool = { _, _ in true }) throws -> [FaceDescriptor] {
        var descriptors: [FaceDescriptor] = []
        var events: [Event] = []
        var lastT = -Double.infinity
        var faceID: Int?
        while descriptors.count < count {
            events.removeAll(keepingCapacity: true)
            guard let result = try processor.processNext(from: &source, emit: { events.append($0) }) else { break }
            guard observe(result, events) else { break }
            let frame = result.frame
            guard result.faces.count == 1, result.facesInView <= 1, let face = result.faces.first,
                  frame.t - lastT >= spacing else { continue }
            if let faceID, face.id != faceID {
                throw IdentityError.face("the tracked face changed during sampling; keep one person in view")
            }
            let descriptor = try describer.describe(frame, face: face)
            guard quality.problem(with: face, chip: describer.describer.chip) == nil else { continue }
            faceID = face.id
            descriptors.append(descriptor)
            lastT = frame.t
        }
        return descriptors
    }
}
