import FaceCore
import Landmarks

/// A face followed from frame to frame: its stable id, the box its landmarks were fitted in,
/// and the landmarks.
public struct TrackedFace: Sendable, Equatable {
    /// Stable while the face is tracked; a face that leaves and comes back gets a new id.
    public let id: Int
    /// The box (in dlib's convention) the latest landmarks were fitted in.
    public var box: FaceBox
    /// The latest 68 landmarks.
    public var shape: FaceShape
    /// Frames this face has been tracked for.
    public var age: Int
    /// Consecutive failed checks.
    public var misses: Int

    public init(id: Int, box: FaceBox, shape: FaceShape) {
        self.id = id
        self.box = box
        self.shape = shape
        self.age = 1
        self.misses = 0
    }
}
