import Foundation

/// A device call that failed with an errno value, e.g. `/dev/video0: VIDIOC_DQBUF: No such device`.
public struct VideoDeviceError: Error, Equatable, CustomStringConvertible {
    public let device: String
    /// The call, e.g. `open`, `poll` or `VIDIOC_S_FMT`.
    public let call: String
    /// The errno value.
    public let code: Int32

    public init(device: String, call: String, code: Int32) {
        self.device = device
        self.call = call
        self.code = code
    }

    /// EAGAIN: nothing to dequeue yet (the descriptor is non-blocking).
    public var isWouldBlock: Bool { code == EAGAIN || code == EWOULDBLOCK }
    /// EINTR: a signal interrupted the call; it can be made again.
    public var isInterrupted: Bool { code == EINTR }
    /// ENODEV: the device was unplugged.
    public var isNoDevice: Bool { code == ENODEV }

    public var description: String { "\(device): \(call): \(String(cString: strerror(code)))" }
}
