import ArgumentParser
import Capture
import Config
import Foundation

/// `facewatch devices`: what every video device offers.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List video devices with their capabilities, pixel formats, frame sizes and frame rates."
    )

    @Argument(help: "Devices to describe (default: every /dev/video*); emulated:RECORDING works too.")
    var devices: [String] = []

    @Option(help: "A config.json: the automatic format choice is explained for its camera.width × camera.height.")
    var config: String?

    mutating func run() throws {
        let names = devices.isEmpty ? VideoDevices.nodes() : devices
        guard !names.isEmpty else {
            print("no cameras found (no /dev/video* devices)")
            return
        }
        let camera = try config.map { try Configuration(contentsOf: $0) }?.camera ?? CameraConfiguration()
        let clock = SystemClock()
        for name in names {
            do {
                let device = try VideoDevices.open(name, clock: clock)
                defer { device.close() }
                for line in try DeviceReport(device: device, width: camera.width, height: camera.height).lines { print(line) }
            } catch {
                print("\(name): cannot query: \(error)")
            }
        }
    }
}
