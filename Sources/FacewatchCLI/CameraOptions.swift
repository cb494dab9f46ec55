import ArgumentParser
import Capture
import Config

/// The camera options of the commands that capture live; each overrides the config's `camera`
/// setting of the same name.
struct CameraOptions: ParsableArguments {
    @Option(help: "A V4L2 device such as /dev/video0, or emulated:RECORDING to play a recording folder as a camera. Default: camera.device.")
    var device: String?

    @Option(help: "Frame size to ask for, WIDTHxHEIGHT (the camera may grant another). Default: camera.width × camera.height.")
    var size: String?

    @Option(help: "Frames per second to ask for. Default: camera.fps.")
    var fps: Double?

    @Option(help: "Pixel format: auto (MJPG, JPEG, YUYV, GREY ranked at the nearest size; `facewatch devices` shows the choice), mjpg, yuyv or grey. Default: camera.format.")
    var format: String?

    @Option(help: "Memory-mapped capture buffers. Default: camera.buffers.")
    var buffers: Int?

    @Option(help: "Seconds to wait for a frame before reporting a timeout. Default: camera.poll_timeout_s.")
    var pollTimeout: Double?

    @Option(help: "Seconds to keep trying to reopen an unplugged camera. Default: camera.reconnect_for_s.")
    var reconnectFor: Double?

    func validate() throws {
        if let size { _ = try parseSize(size) }
        try check("--fps", fps, in: CameraConfiguration.rates)
        if let format, !CameraConfiguration.formats.contains(format) {
            throw ValidationError("--format is one of \(CameraConfiguration.formats.joined(separator: ", ")); got \"\(format)\"")
        }
        try check("--buffers", buffers, in: CameraConfiguration.bufferCounts)
        try check("--poll-timeout", pollTimeout, in: CameraConfiguration.pollTimeouts)
        try check("--reconnect-for", reconnectFor, in: CameraConfiguration.reconnectTimes)
    }

    /// The same ranges as the `camera` settings of `config.json`.
    private func check<Value: Comparable>(_ option: String, _ value: Value?, in range: ClosedRange<Value>) throws {
        if let value, !range.contains(value) {
            throw ValidationError("\(option) must be from \(range.lowerBound) to \(range.upperBound); got \(value)")
        }
    }

    /// The config's camera section with these options applied.
    func apply(to configuration: CameraConfiguration) throws -> CameraConfiguration {
        var camera = configuration
        if let device { camera.device = device }
        if let size { (camera.width, camera.height) = try parseSize(size) }
        if let fps { camera.fps = fps }
        if let format { camera.format = format }
        if let buffers { camera.buffers = buffers }
        if let pollTimeout { camera.pollTimeout = pollTimeout }
        if let reconnectFor { camera.reconnectFor = reconnectFor }
        return camera
    }

    private func parseSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x").map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1],
              CameraConfiguration.sides.contains(width), CameraConfiguration.sides.contains(height) else {
            throw ValidationError("--size is WIDTHxHEIGHT, each from \(CameraConfiguration.sides.lowerBound) to "
                                  + "\(CameraConfiguration.sides.upperBound), e.g. 640x480; got \"\(text)\"")
        }
        return (width, height)
    }
}
