import Foundation
import Imaging
import Recordings

/// Records a camera into a recording folder (shared/spec/recording-format.md): JPEG frames as
/// the camera sent them, byte for byte; YUYV and GREY luma encoded once to JPEG at quality 75.
/// Bad frames and timeouts are reported and skipped; a disconnected camera is reopened through
/// the reconnector, and recording carries on.
public enum CameraRecorder {
    /// What a recording session did.
    public struct Summary: Sendable, Equatable {
        public var frames = 0
        /// Frames skipped as bad, and timeouts.
        public var skipped = 0
        public var reconnects = 0
    }

    /// JPEG quality for frames that arrive uncompressed.
    public static let quality = 75

    /// Records frames with `t < seconds` into `directory` (which must not hold a recording), or
    /// until `shouldStop` says so (a signal). The recording is finished (readable) even when a
    /// failure ends it early; the failure is then thrown.
    public static func record(_ camera: Camera, seconds: Double, to directory: String, reconnector: Reconnector,
                              shouldStop: () -> Bool = { false }, log: (String) -> Void) throws -> Summary {
        let format = camera.format
        let writer = try RecordingWriter(directory: directory, info: camera.recordingInfo)
        var summary = Summary()
        do {
            loop: while !shouldStop() {
                do {
                    guard let frame = try camera.nextFrame(), frame.t < seconds else { break loop }
                    switch frame.payload {
                    case .jpeg(let jpeg): try writer.append(jpeg: jpeg, t: frame.t)
                    case .gray(let image): try writer.append(jpeg: JPEGEncoder.encode(image, quality: quality), t: frame.t)
                    }
                    summary.frames += 1
                } catch let error as FrameError {
                    summary.skipped += 1
                    log("skipped: \(error)")
                    if error.t >= seconds { break loop }
                } catch CameraError.disconnected(let device) {
                    log("\(device) disconnected; reconnecting")
                    try reconnector.run(device: device, attempt: camera.reopen) { error, delay in
                        log("\(error); retrying in \(String(format: "%.2f", delay)) s")
                    }
                    guard camera.format.width == format.width, camera.format.height == format.height else {
                        throw CameraError.unusable(device: device, problem: "came back at \(camera.format.width)×\(camera.format.height), not \(format.width)×\(format.height)")
                    }
                    summary.reconnects += 1
                    log("\(device) is back: \(camera.format)")
                }
            }
        } catch {
            try? writer.finish()
            throw error
        }
        try writer.finish()
        return summary
    }
}
