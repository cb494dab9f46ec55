import FaceCore
import FaceDescriptor

/// Whether a face is good enough to enrol: frontal, eyes open, sharp. Sharpness is the variance
/// of the Laplacian of the aligned chip's luminance, so it does not depend on the face's size.
public struct EnrolmentQuality: Sendable, Equatable {
    /// Largest head yaw and pitch in degrees.
    public var maxTurn = 25.0
    /// Smallest eye aspect ratio of either eye.
    public var minEyeOpening = 0.18
    /// Smallest Laplacian variance of the chip.
    public var minSharpness = 60.0

    public init() {}

    /// Why the face is not good enough, or nil.
    public func problem(with face: FaceObservation, chip: FaceChip) -> String? {
        let pose = face.measures.pose
        if abs(pose.yaw) > maxTurn || abs(pose.pitch) > maxTurn {
            return "not frontal (yaw \(Int(pose.yaw.rounded()))°, pitch \(Int(pose.pitch.rounded()))°; at most \(Int(maxTurn))°)"
        }
        if min(face.measures.earLeft, face.measures.earRight) < minEyeOpening { return "eyes not open" }
        let sharpness = Self.sharpness(chip)
        if sharpness < minSharpness { return "blurred (sharpness \(Int(sharpness)), at least \(Int(minSharpness)))" }
        return nil
    }

    /// Variance of the 4-neighbour Laplacian of the chip's luminance (0.299 R + 0.587 G + 0.114 B).
    public static func sharpness(_ chip: FaceChip) -> Double {
        let n = FaceChip.size
        let p = chip.pixels
        func y(_ x: Int, _ r: Int) -> Double {
            let o = 3 * (r * n + x)
            return 0.299 * Double(p[o]) + 0.587 * Double(p[o + 1]) + 0.114 * Double(p[o + 2])
        }
        var sum = 0.0, squares = 0.0, count = 0.0
        for r in 1..<(n - 1) {
            for x in 1..<(n - 1) {
                let l = y(x - 1, r) + y(x + 1, r) + y(x, r - 1) + y(x, r + 1) - 4 * y(x, r)
                sum += l
                squares += l * l
                count += 1
            }
        }
        let mean = sum / count
        return squares / count - mean * mean
    }
}
