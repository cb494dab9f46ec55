import Foundation

/// A camera that cannot deliver frames at all. Each case names the device.
public enum CameraError: Error, Equatable, CustomStringConvertible {
    /// The node exists but cannot stream video frames (e.g. a UVC metadata node).
    case notACaptureDevice(device: String, card: String, capabilities: [String])
    /// None of the offered formats is MJPG, JPEG, YUYV or GREY.
    case noUsableFormat(device: String, offered: [String])
    /// The device does not offer the pixel format asked for (`--format`, `camera.format`).
    case formatNotOffered(device: String, format: String, offered: [String])
    /// The device was unplugged (ENODEV). Call `Camera.reopen()` (e.g. through `Reconnector`).
    case disconnected(device: String)
    /// `nextFrame()` on a camera that was closed or lost and not reopened.
    case notOpen(device: String)
    /// A device call failed in a way that ends the stream.
    case failed(VideoDeviceError)
    /// Another problem with the device, explained.
    case unusable(device: String, problem: String)
    /// `Reconnector` gave up: the device did not come back in time.
    case gaveUp(device: String, seconds: Double, lastError: String)

    public var description: String {
        switch self {
        case .notACaptureDevice(let device, let card, let capabilities):
            let has = capabilities.isEmpty ? "none" : capabilities.joined(separator: ", ")
            return "\(device) (\(card)) is not a streaming video capture device (capabilities: \(has))"
        case .noUsableFormat(let device, let offered):
            let list = offered.isEmpty ? "none" : offered.joined(separator: ", ")
            return "\(device) offers no usable pixel format (need MJPG, JPEG, YUYV or GREY; it offers \(list))"
        case .formatNotOffered(let device, let format, let offered):
            let list = offered.isEmpty ? "none" : offered.joined(separator: ", ")
            return "\(device) does not offer \(format) (it offers \(list)); choose another with --format or camera.format, or \"auto\""
        case .disconnected(let device):
            return "\(device) was disconnected"
        case .notOpen(let device):
            return "\(device) is not open (reopen it after a disconnect)"
        case .failed(let error):
            return error.description
        case .unusable(let device, let problem):
            return "\(device): \(problem)"
        case .gaveUp(let device, let seconds, let lastError):
            return "\(device) did not come back within \(String(format: "%.1f", seconds)) s (last error: \(lastError))"
        }
    }
}
