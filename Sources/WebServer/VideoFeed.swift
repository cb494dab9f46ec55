import Dispatch
import Events
import FaceCore
import Foundation
import Pipeline
import Recordings

/// The annotated video for `/stream.mjpeg`: the processing queue offers every frame, at most
/// `fps` of them a second are drawn (on the feed's own queue, so drawing never holds up the
/// pipeline) and only while someone watches; each viewer takes the newest picture when it is
/// ready for one, so a slow viewer skips pictures instead of slowing anything down (`pictures`
/// wakes them when one is ready).
///
/// `@unchecked Sendable`: every stored `var` but `renderer` is read and written only with `lock`
/// held; `renderer` is used only by the drawing job in flight, and `drawing` (under `lock`)
/// admits one job at a time.
public final class VideoFeed: @unchecked Sendable {
    public let fps: Double
    /// Wakes the viewers' streams whenever a picture is ready.
    public let pictures = ChangeNotifier()
    private let queue = DispatchQueue(label: "facewatch.video")
    private let lock = NSLock()
    private var renderer: FrameRenderer
    private var latest: (sequence: Int, jpeg: Data)?
    private var drawing = false
    private var lastDrawn = -Double.infinity
    private var pending: [Event] = []
    private var viewers = 0

    public init(fps: Double, quality: Int = 75) {
        self.fps = fps
        renderer = FrameRenderer(quality: quality)
    }

    /// Offers a processed frame with its faces and events (called on the processing queue).
    public func offer(_ frame: Frame, faces: [FaceObservation], events: [Event]) {
        lock.lock()
        defer { lock.unlock() }
        guard viewers > 0 else {
            pending.removeAll()
            return
        }
        pending += events.filter { $0.type != .nose && $0.type != .frame }
        let now = Pipeline.MonotonicClock.now()
        guard !drawing, now - lastDrawn >= 1 / fps else { return }
        drawing = true
        lastDrawn = now
        let events = pending
        pending.removeAll()
        queue.async { [self] in
            let jpeg = try? renderer.render(frame, faces: faces, events: events)
            lock.lock()
            if let jpeg { latest = ((latest?.sequence ?? 0) + 1, jpeg) }
            drawing = false
            lock.unlock()
            if jpeg != nil { pictures.notify() }
        }
    }

    /// The newest picture if it is newer than `sequence`.
    public func picture(after sequence: Int) -> (sequence: Int, jpeg: Data)? {
        lock.lock()
        defer { lock.unlock() }
        guard let latest, latest.sequence > sequence else { return nil }
        return latest
    }

    /// A viewer starts or stops watching; pictures are drawn only while there are viewers.
    public func viewerJoined() {
        lock.lock()
        viewers += 1
        lock.unlock()
    }

    public func viewerLeft() {
        lock.lock()
        viewers -= 1
        lock.unlock()
    }

    /// The multipart boundary of the MJPEG response.
    public static let boundary = "facewatchframe"

    /// One part of the `multipart/x-mixed-replace` stream: boundary, headers, the JPEG.
    public static func part(_ jpeg: Data) -> Data {
        var part = Data("--\(boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\n\r\n".utf8)
        part.append(jpeg)
        part.append(contentsOf: Array("\r\n".utf8))
        return part
    }
}
