/// A face's 128-number descriptor from dlib's face recognition ResNet. Two photos of one person
/// are typically closer than 0.6 (Euclidean distance), two people farther apart.
public struct FaceDescriptor: Sendable, Equatable, Codable {
    public var values: [Float]

    public init(_ values: [Float]) {
        precondition(values.count == DescriptorNetwork.descriptorLength, "a face descriptor has 128 values")
        self.values = values
    }

    /// The Euclidean distance, computed in double as dlib's `length(a - b)` on double vectors.
    public func distance(to other: FaceDescriptor) -> Double {
        var sum = 0.0
        for i in 0..<values.count {
            let d = Double(values[i]) - Double(other.values[i])
            sum += d * d
        }
        return sum.squareRoot()
    }
}
