/// Errors from measuring a face.
public enum ExpressionError: Error, Equatable, CustomStringConvertible {
    /// The shape does not have the 68 iBUG points the measures are defined on.
    case wrongPointCount(Int)
    /// The frame size is not positive.
    case invalidFrameSize(width: Int, height: Int)

    public var description: String {
        switch self {
        case .wrongPointCount(let n):
            return "expression measures need a 68-point face shape, got \(n) points"
        case .invalidFrameSize(let w, let h):
            return "frame size must be positive, got \(w)×\(h)"
        }
    }
}
