import Events
import FaceCore
import Foundation
import Imaging
import Recordings

/// Writes what the daemon saw as an MJPEG stream (`ffplay OUT.mjpeg`): every frame drawn by a
/// `FrameRenderer`, one JPEG after another.
public final class FrameAnnotator {
    public let path: String
    private let output: FileHandle
    private var renderer: FrameRenderer

    /// Creates (or truncates) the output file.
    public init(path: String, quality: Int = 80) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil),
              let handle = FileHandle(forWritingAtPath: path) else {
            throw RecordingError(path: path, problem: "cannot create the annotated video")
        }
        self.path = path
        self.output = handle
        self.renderer = FrameRenderer(quality: quality)
    }

    /// Draws one processed frame with the processor's observations and the frame's events, and
    /// appends it to the stream.
    public func annotate(_ frame: Frame, faces: [FaceObservation], events: [Event]) throws {
        do {
            guard let jpeg = try renderer.render(frame, faces: faces, events: events) else { return }  // a bad frame: nothing to draw on
            try output.write(contentsOf: jpeg)
        } catch {
            throw RecordingError(path: path, problem: "cannot write the annotated video (\(error))")
        }
    }

    public func close() {
        try? output.close()
    }
}

/// Draws what the daemon saw on a frame, as a JPEG: each face's box and 68 points (eye points red
/// while the eye is below its closing threshold, mouth points yellow while the mouth is open),
/// its EAR and MAR, and banners for the events as they fire. Used by `--annotate` and the web
/// server's MJPEG stream.
public struct FrameRenderer {
    private let quality: Int
    private var decoder = JPEGDecoder()
    private var banners: [(text: String, until: Double, color: Color)] = []

    public init(quality: Int = 80) {
        self.quality = quality
    }

    /// The frame drawn with `faces` and banners for `events` (those since the last call), or nil
    /// when the frame does not decode.
    public mutating func render(_ frame: Frame, faces: [FaceObservation], events: [Event]) throws -> Data? {
        var canvas: RGBImage
        switch frame.payload {
        case .jpeg(let jpeg):
            guard let decoded = try? decoder.decodeRGB(jpeg) else { return nil }
            canvas = decoded
        case .gray(let gray):
            canvas = RGBImage(gray: gray)
        }
        for event in events { banner(for: event, at: frame.t) }
        banners.removeAll { $0.until < frame.t }
        for face in faces { draw(face, on: &canvas) }
        canvas.text(String(format: "T %.2f  F %d", frame.t, frame.index), x: 8, y: 8, color: .white)
        for (n, banner) in banners.enumerated() {
            canvas.text(banner.text, x: 8, y: canvas.height - 24 - 20 * n, scale: 2, color: banner.color)
        }
        return try JPEGEncoder.encode(canvas, quality: quality)
    }

    private func draw(_ face: FaceObservation, on canvas: inout RGBImage) {
        canvas.rectangle(x: face.box.x, y: face.box.y, width: face.box.width, height: face.box.height, thickness: 2, color: .cyan)
        let m = face.measures, th = face.thresholds
        let rightClosed = m.earRight < th.earCloseRight, leftClosed = m.earLeft < th.earCloseLeft
        for (i, p) in face.shape.points.enumerated() {
            let color: Color
            switch i {
            case 36...41: color = rightClosed ? .red : .green
            case 42...47: color = leftClosed ? .red : .green
            case 48...67: color = face.mouthOpen ? .yellow : face.smiling ? .cyan : .green
            default: color = .white
            }
            canvas.dot(x: Double(p.x), y: Double(p.y), radius: 1, color: color)
        }
        let label = String(format: "#%d EAR L%.2f R%.2f MAR %.2f", face.id, m.earLeft, m.earRight, m.mar)
        let labelX = max(2, min(face.box.x, canvas.width - 12 * label.count - 4))
        canvas.text(label, x: labelX, y: max(2, face.box.y - 20), scale: 2, color: .white)
        if face.smiling { canvas.text("SMILE", x: face.box.x, y: face.box.y + face.box.height + 6, color: .cyan) }
        if face.mouthOpen { canvas.text("MOUTH OPEN", x: face.box.x + 80, y: face.box.y + face.box.height + 6, color: .yellow) }
    }

    private mutating func banner(for event: Event, at t: Double) {
        switch event.payload {
        case .blink(let face, _, let duration):
            banners.append((String(format: "BLINK #%d %.0f MS", face, duration * 1000), t + 0.6, .green))
        case .wink(let face, let eye, _, _):
            banners.append(("WINK #\(face) \(eye.rawValue)", t + 0.6, .yellow))
        case .eyesClosed(let face, let state, _, _):
            banners.append(("EYES CLOSED #\(face) \(state.rawValue)", t + 0.6, .red))
        case .smile(let face, let state, _):
            banners.append(("SMILE #\(face) \(state.rawValue)", t + 0.6, .cyan))
        case .mouthOpen(let face, let state, _):
            banners.append(("MOUTH #\(face) \(state.rawValue)", t + 0.6, .yellow))
        case .faceFound(let face, _):
            banners.append(("FACE #\(face) FOUND", t + 0.6, .white))
        case .faceLost(let face, _):
            banners.append(("FACE #\(face) LOST", t + 0.6, .red))
        case .error(_, let code):
            banners.append(("ERROR \(code)", t + 0.6, .red))
        default:
            break
        }
    }
}
