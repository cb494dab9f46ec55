import ArgumentParser
import Capture
import Daemon
import Foundation
import Recordings

/// `facewatch loopback REC --device /dev/videoN`: plays a recording into a V4L2 output device
/// (v4l2loopback) as a virtual camera.
struct LoopbackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "loopback",
        abstract: "Play a recording into a V4L2 output device (v4l2loopback) on the recording's clock: a virtual camera.",
        discussion: """
            Any program that reads the loopback's capture side (a browser page, another tool, `facewatch run`) then \
            sees the recorded frames as a live camera. MJPG writes the recorded JPEGs as they are; YUYV and GREY \
            write their decoded luma (YUYV with neutral chroma), the pixels `replay` processes. --lead-in shows the \
            first frame for up to that many seconds before playing (time for a reader to start); SIGUSR1 ends the \
            lead-in at once. --speed plays faster or slower than recorded; each frame still carries its recorded \
            time as its V4L2 timestamp (from when playing started), so a reader that times frames by their timestamps \
            (`facewatch run` does) sees the recording's clock even when fed slowly. Example: sudo modprobe v4l2loopback video_nr=10; \
            facewatch loopback Recordings/double-blinks --device /dev/video10 --loop
            """
    )

    @Argument(help: "A recording folder.")
    var recording: String

    @Option(help: "The V4L2 output device, e.g. /dev/video10 (a v4l2loopback node).")
    var device: String

    @Option(help: "Pixel format to write: mjpg, yuyv or grey.")
    var format: PixelFormatChoice = .mjpg

    @Flag(help: "Play the recording over and over until interrupted.")
    var loop = false

    @Option(help: "Seconds to show the first frame before playing (SIGUSR1 starts playing at once).")
    var leadIn: Double = 0

    @Option(help: "Play at this many times the recording's rate, from 0.01 (e.g. 0.25: a quarter; frames keep their recorded timestamps).")
    var speed: Double = 1

    func validate() throws {
        guard leadIn >= 0, leadIn.isFinite else { throw ValidationError("--lead-in must be 0 or more seconds") }
        try PlaybackSpeed.validate(speed)
    }

    mutating func run() throws {
        let opened = try Recording(directory: recording)
        let feeder: LoopbackFeeder
        do {
            feeder = try LoopbackFeeder(recording: opened, device: device, format: format.fourcc)
        } catch let error as VideoDeviceError {
            throw CommandError("\(error) (is it a v4l2loopback device? `sudo modprobe v4l2loopback` creates one)")
        }
        let started = SignalWatcher(signals: [SIGUSR1])
        if leadIn > 0 {
            Log.shared.info("lead-in: showing the first frame of \(recording) on \(device) for up to \(leadIn) s (SIGUSR1 starts playing)")
        }
        Log.shared.info("playing \(recording) into \(device): \(opened.frames.count) frames, \(format.fourcc) \(opened.info.width)x\(opened.info.height) at \(opened.info.fps) fps\(speed == 1 ? "" : " played at \(speed)x")\(loop ? ", looping" : "")")
        let written = try withExtendedLifetime(started) {
            try feeder.play(loops: loop ? nil : 1, leadIn: leadIn, speed: speed, start: { started.received })
        }
        Log.shared.info("\(written) frames written to \(device)")
    }
}
