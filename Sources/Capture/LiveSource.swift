import Capture
import Events
import Foundation
import Imaging
import Recordings

/// The daemon's frame source: a camera that survives being unplugged (an `error` event, then
/// reopening with backoff until it is back or the reconnector gives up) and, when asked,
/// records what it delivers (`run --record DIR`). A recording that cannot be written (a full
/// disk) is stopped with an `error` event (code `record_failed`); the events go on.
public struct LiveSource: FrameSource {
    public let camera: Camera
    public let reconnector: Reconnector
    /// Reports problems as events (through the pipeline's writer).
    public let report: (Event) -> Void
    private(set) var recorder: RecordingWriter?
    private var last = (index: 0, t: 0.0)

    public init(camera: Camera, reconnector: Reconnector, recorder: RecordingWriter?, report: @escaping (Event) -> Void) {
        self.camera = camera
        self.reconnector = reconnector
        self.recorder = recorder
        self.report = report
    }

    public mutating func nextFrame() throws -> Frame? {
        while true {
            do {
                guard let frame = try camera.nextFrame() else { return nil }
                last = (frame.index, frame.t)
                record(frame)
                return frame
            } catch CameraError.disconnected(let device) {
                report(Event(t: last.t, frame: last.index,
                             .error(message: "\(device) was disconnected; reopening until it is back", code: "camera_disconnected")))
                try reconnector.run(device: device, attempt: camera.reopen)
                report(Event(t: last.t, frame: last.index,
                             .error(message: "\(device) is back: \(camera.format)", code: "camera_reconnected")))
            }
        }
    }

    private mutating func record(_ frame: Frame) {
        guard let recorder else { return }
        do {
            switch frame.payload {
            case .jpeg(let jpeg): try recorder.append(jpeg: jpeg, t: frame.t)
            case .gray(let gray): try recorder.append(jpeg: JPEGEncoder.encode(gray, quality: 75), t: frame.t)
            }
        } catch {
            // The frames so far stay replayable (recording.json was written at the start).
            try? recorder.finish()
            self.recorder = nil
            report(Event(t: frame.t, frame: frame.index,
                         .error(message: "recording stopped: \(error)", code: "record_failed")))
        }
    }
}
