import ArgumentParser
import Capture

/// The camera options of `record` (and of any command that captures live).
struct CameraOptions: ParsableArguments {
    @Option(help: "A V4L2 device such as /dev/video0, or emulated:RECORDING to play a recording folder as a camera.")
    var device = CameraSettings().device

    @Option(help: "Frame width to ask for (the camera may grant another).")
    var width = CameraSettings().width

    @Option(help: "Frame height to ask for.")
    var height = CameraSettings().height

    @Option(help: "Frames per second to ask for.")
    var fps = CameraSettings().fps

    @Option(help: "Memory-mapped capture buffers.")
    var buffers = CameraSettings().buffers

    @Option(help: "Seconds to wait for a frame before reporting a timeout.")
    var pollTimeout = CameraSettings().pollTimeout

    @Option(help: "Seconds to keep trying to reopen an unplugged camera.")
    var reconnectFor = 60.0

    var settings: CameraSettings {
        CameraSettings(device: device, width: width, height: height, fps: fps, buffers: buffers, pollTimeout: pollTimeout)
    }

    func validate() throws {
        guard width > 0, height > 0, fps > 0, buffers > 0, pollTimeout > 0, reconnectFor >= 0 else {
            throw ValidationError("--width, --height, --fps, --buffers and --poll-timeout must be positive")
        }
    }
}
