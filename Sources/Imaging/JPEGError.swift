/// A JPEG that could not be decoded or encoded: corrupt, truncated, or not a JPEG at all.
public struct JPEGError: Error, Equatable, CustomStringConvertible {
    /// libjpeg's own message, e.g. "Premature end of JPEG file".
    public let message: String

    public init(message: String) {
        self.message = message
    }

    public var description: String { "bad JPEG: \(message)" }
}
