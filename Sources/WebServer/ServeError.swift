import Foundation
import NIOCore

/// The web server could not serve on its address (the port is taken, the address is not this
/// machine's, ...); the description is one line naming the address.
public struct ServeError: Error, CustomStringConvertible {
    /// `host:port` (`--http`, `http.bind`).
    public let address: String
    /// What went wrong, e.g. "Address already in use".
    public let reason: String

    /// Describes `error`, thrown by the server on `address`; a socket error reads as the system's
    /// message for its errno.
    public init(address: String, error: Error) {
        self.address = address
        if let io = error as? IOError {
            reason = String(cString: strerror(io.errnoCode))
        } else {
            reason = "\(error)"
        }
    }

    public var description: String { "cannot serve on \(address): \(reason)" }
}
