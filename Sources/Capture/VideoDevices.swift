import Foundation
import Recordings

/// Finding and opening video devices by name.
public enum VideoDevices {
    /// The prefix of an emulated device's name: `emulated:RECORDING-FOLDER`.
    public static let emulatedPrefix = "emulated:"

    /// The `videoN` nodes in `directory`, in numeric order.
    public static func nodes(in directory: String = "/dev") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.compactMap { name -> (Int, String)? in
            guard name.hasPrefix("video"), let number = Int(name.dropFirst(5)) else { return nil }
            return (number, (directory as NSString).appendingPathComponent(name))
        }.sorted { $0.0 < $1.0 }.map(\.1)
    }

    /// Opens `name`: `emulated:RECORDING` plays the recording folder as a camera in real time,
    /// looping; anything else is a V4L2 node such as `/dev/video0`.
    public static func open(_ name: String, clock: any CaptureClock) throws -> any VideoDevice {
        if name.hasPrefix(emulatedPrefix) {
            let recording = try Recording(directory: String(name.dropFirst(emulatedPrefix.count)))
            return try EmulatedCamera(recording: recording, clock: clock).open()
        }
        return try V4L2Device(path: name)
    }
}
