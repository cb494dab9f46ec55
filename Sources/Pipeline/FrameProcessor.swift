import Events
import Expressions
import FaceCore
import Foundation
import Imaging
import Landmarks
import Recordings
import Tracking

/// The per-frame work of the pipeline: decode → detect/track → landmarks → expressions → events.
///
/// One processor serves one stream; frames must come in time order. Its buffers (the gray image,
/// the tracker's, the state machines') are reused, so a frame allocates nothing in steady state
/// beyond the events it emits.
public final class FrameProcessor {
    public let options: OutputOptions
    /// How color frames become gray for the landmark model.
    public let conversion: GrayConversion
    /// Frames that could not be decoded.
    public private(set) var badFrames = 0
    /// Frames processed, decoded or not.
    public private(set) var processedFrames = 0
    /// JPEG frames decoded only in part, around the tracked faces (`decodesOnlyFaces`).
    public private(set) var partlyDecodedFrames = 0
    /// Stage times of the last frame.
    public private(set) var timings = FrameTimings()
    /// The tracked faces of the last processed frame.
    public private(set) var observations: [FaceObservation] = []

    public let tracker: FaceTracker
    /// Whether a JPEG frame is decoded only around the tracked faces while no full-frame scan is
    /// due (luma only; the events are the same either way). Default true.
    public var decodesOnlyFaces = true
    private let expressionSettings: ExpressionSettings
    private var expressions: [(id: Int, tracker: ExpressionTracker)] = []
    private var decoder = JPEGDecoder()
    private var gray = GrayImage(width: 0, height: 0)
    /// The whole frame, when the tracker needs more of it than was decoded into `gray`.
    private var completed = GrayImage(width: 0, height: 0)
    private var lastErrorReport = -Double.infinity
    /// The arrays `frame` events carry their faces in, used in turn, each face's landmarks in
    /// storage of its own. An event holds its array until it has been written; by the time the
    /// turn comes round again it has, so the faces are written over the old ones instead of
    /// into new arrays (an array still held is copied on write, like any value).
    private var frameFaceArrays = [[FrameFace]](repeating: [], count: 4)
    private var nextFrameFaces = 0
    private var unreportedBadFrames = 0

    /// A bad frame is reported at once, then at most once per this many seconds (with a count).
    public static let errorReportInterval = 1.0

    public init(tracker: FaceTracker, expressions: ExpressionSettings = ExpressionSettings(),
                options: OutputOptions = OutputOptions(), conversion: GrayConversion = .luma) {
        self.tracker = tracker
        self.expressionSettings = expressions
        self.options = options
        self.conversion = conversion
    }

    /// Refuses (as bad frames) JPEG frames larger than `width` × `height` before decoding them.
    /// The default is `JPEGDecoder.defaultMaximumSide` a side; a live camera sets its negotiated size.
    public func limitFrameSize(width: Int, height: Int) {
        decoder.maximumWidth = width
        decoder.maximumHeight = height
    }

    /// Processes a frame from a camera or a recording; returns what it made of it.
    @discardableResult
    public func process(_ frame: Frame, emit: (Event) -> Void) -> FrameResult {
        switch frame.payload {
        case .jpeg(let jpeg): process(jpeg: jpeg, index: frame.index, t: frame.t, emit: emit)
        case .gray(let image): process(gray: image, index: frame.index, t: frame.t, emit: emit)
        }
        return FrameResult(frame: frame, faces: observations, facesInView: tracker.facesInView, detections: tracker.detections)
    }

    /// Full-frame detector runs so far.
    public var detectorRuns: Int { tracker.detectorRuns }

    /// Forgets every tracked face, as if the stream started again (without reporting them lost).
    public func forgetFaces() {
        tracker.reset()
    }

    /// Processes a JPEG frame. A frame that does not decode is skipped: it yields an `error`
    /// event (rate-limited) and the tracks carry on with the next good frame.
    ///
    /// While faces are tracked and no full-frame scan is due, only the part of the frame around
    /// them is decoded (`decodesOnlyFaces`, luma frames): the tracker decodes the rest itself
    /// when it needs it, so the events are those of a whole decode, byte for byte.
    public func process(jpeg: some ContiguousBytes, index: Int, t: Double, emit: (Event) -> Void) {
        let start = MonotonicClock.now()
        var decoded: PixelRegion?
        do {
            if let region = regionToDecode(at: t) {
                let written = try decoder.decodeLuma(jpeg, into: &gray, region: region)
                decoded = written == .whole(width: gray.width, height: gray.height) ? nil : written
                if decoded != nil { partlyDecodedFrames += 1 }
            } else {
                try decoder.decode(jpeg, into: &gray, conversion: conversion)
            }
        } catch {
            skip(index: index, t: t, because: "\(error)", emit: emit)
            return
        }
        var decode = MonotonicClock.now() - start
        process(gray: gray, index: index, t: t, decoded: decoded, complete: {
            let start = MonotonicClock.now()
            defer { decode += MonotonicClock.now() - start }
            guard (try? decoder.decode(jpeg, into: &completed, conversion: .luma)) != nil else { return nil }
            return completed
        }, emit: emit)
        timings.decode = decode
    }

    /// The part of the frame at `t` the tracker will read, when that is less than all of it.
    private func regionToDecode(at t: Double) -> PixelRegion? {
        guard decodesOnlyFaces, conversion == .luma, !gray.isEmpty,
              let region = tracker.pixelsNeeded(at: t, width: gray.width, height: gray.height),
              region != .whole(width: gray.width, height: gray.height) else { return nil }
        return region
    }

    /// Counts a frame that could not be used. The first bad frame is reported at once as an
    /// `error` event (code `bad_frame`), later ones at most once per `errorReportInterval`
    /// seconds with how many were skipped since: a camera in low light can send many.
    public func skip(index: Int, t: Double, because reason: String, emit: (Event) -> Void) {
        processedFrames += 1
        badFrames += 1
        unreportedBadFrames += 1
        if t - lastErrorReport >= Self.errorReportInterval || t < lastErrorReport {
            let count = unreportedBadFrames == 1 ? "" : " (\(unreportedBadFrames) bad frames since the last report)"
            emit(Event(t: t, frame: index, .error(message: "frame \(index) skipped: \(reason)\(count)", code: "bad_frame")))
            lastErrorReport = t
            unreportedBadFrames = 0
        }
    }

    /// Processes a decoded gray frame.
    public func process(gray image: GrayImage, index: Int, t: Double, emit: (Event) -> Void) {
        process(gray: image, index: index, t: t, decoded: nil, complete: { nil }, emit: emit)
    }

    /// Processes a frame of which only `decoded` (nil: all) holds its pixels; `complete` gives
    /// the whole frame (see `FaceTracker.update(_:t:decoded:complete:)`).
    private func process(gray image: GrayImage, index: Int, t: Double, decoded: PixelRegion?,
                         complete: () -> GrayImage?, emit: (Event) -> Void) {
        processedFrames += 1
        // The last frame's observations share the tracks' landmark storage: let them go before
        // the fits write into it, so it is not copied.
        observations.removeAll(keepingCapacity: true)
        tracker.update(image, t: t, decoded: decoded, complete: complete)
        let start = MonotonicClock.now()
        defer {
            let tracked = tracker.timings
            timings = FrameTimings()
            timings.detect = tracked.detection
            timings.track = tracked.verification
            timings.landmarks = tracked.landmarks
            timings.expressions = MonotonicClock.now() - start
        }
        for id in tracker.lost { close(id, index: index, t: t, emit: emit) }
        for id in tracker.found {
            expressions.append((id, ExpressionTracker(settings: expressionSettings)))
            if let face = tracker.faces.first(where: { $0.id == id }) {
                emit(Event(t: t, frame: index, .faceFound(face: id, box: face.box)))
            }
        }
        let frameSlot = nextFrameFaces
        var frameFaceCount = 0
        if options.frames { nextFrameFaces = (nextFrameFaces + 1) % frameFaceArrays.count }
        for face in tracker.faces {
            guard let slot = expressions.firstIndex(where: { $0.id == face.id }) else { continue }
            let id = face.id
            guard let measures = try? expressions[slot].tracker.update(
                face.shape, frameWidth: image.width, frameHeight: image.height, t: t,
                emit: { emit(Event(t: t, frame: index, EventPayload($0, face: id))) })
            else { continue }
            let state = expressions[slot].tracker
            let thresholds = FrameThresholds(
                earCloseLeft: state.blink.openEAR(of: .left) * state.blink.settings.closeRatio,
                earCloseRight: state.blink.openEAR(of: .right) * state.blink.settings.closeRatio,
                smile: state.smile.baseline + state.smile.settings.startDelta,
                mar: state.mouthOpen.baseline + state.mouthOpen.settings.startDelta)
            observations.append(FaceObservation(
                id: id, box: face.box, shape: face.shape, measures: measures,
                brightness: Self.meanBrightness(image, in: face.box), thresholds: thresholds,
                smiling: state.smile.isActive, mouthOpen: state.mouthOpen.isActive))
            if options.nose {
                emit(Event(t: t, frame: index, .nose(face: id, x: measures.nose.x, y: measures.nose.y)))
            }
            if options.frames {
                Self.store(FrameFace(face: id, box: face.box, earLeft: measures.earLeft, earRight: measures.earRight,
                                     mar: measures.mar, smile: measures.smile, nose: measures.nose,
                                     yaw: measures.pose.yaw, pitch: measures.pose.pitch, roll: measures.pose.roll,
                                     thresholds: thresholds),
                           landmarks: options.landmarks ? face.shape.points : nil,
                           at: frameFaceCount, in: &frameFaceArrays[frameSlot])
                frameFaceCount += 1
            }
        }
        if options.frames {
            frameFaceArrays[frameSlot].removeLast(frameFaceArrays[frameSlot].count - frameFaceCount)
            emit(Event(t: t, frame: index, .frame(faces: frameFaceArrays[frameSlot])))
        }
    }

    /// Puts `face` at `position` of `faces` (at most one past the end) with a copy of
    /// `landmarks` in the storage the face there had, so that neither array is allocated once
    /// they have held as many faces and points, and no event shares a track's landmark storage
    /// (which the next fit writes into).
    private static func store(_ face: FrameFace, landmarks: [SIMD2<Float>]?, at position: Int, in faces: inout [FrameFace]) {
        var entry = face
        if let landmarks {
            var points = position < faces.count ? (faces[position].landmarks.take() ?? []) : []
            points.removeAll(keepingCapacity: true)
            points.append(contentsOf: landmarks)
            entry.landmarks = points
        }
        if position < faces.count {
            faces[position] = entry
        } else {
            faces.append(entry)
        }
    }

    /// Mean gray level inside `box` (clipped to the image), sampled every 4th pixel.
    static func meanBrightness(_ image: GrayImage, in box: FaceBox) -> Double {
        let x0 = max(0, box.x), y0 = max(0, box.y)
        let x1 = min(image.width, box.x + box.width), y1 = min(image.height, box.y + box.height)
        guard x1 > x0, y1 > y0 else { return 0 }
        var sum = 0, count = 0
        image.pixels.withUnsafeBufferPointer { pixels in
            for y in stride(from: y0, to: y1, by: 4) {
                for x in stride(from: x0, to: x1, by: 4) {
                    sum += Int(pixels[y * image.width + x])
                    count += 1
                }
            }
        }
        return Double(sum) / Double(count)
    }

    /// Ends every track (at the end of a stream), closing open intervals (smile, mouth, eyes
    /// closed end at the last frame; a blink or wink still under way is not reported) and
    /// emitting `face_lost` with reason `end`, so a consumer can tell it from a face that left;
    /// bad frames not reported yet (rate limiting) are reported.
    public func finish(index: Int, t: Double, emit: (Event) -> Void) {
        if unreportedBadFrames > 0 {
            emit(Event(t: t, frame: index, .error(
                message: "\(unreportedBadFrames) bad frames since the last report (end of stream)", code: "bad_frame")))
            unreportedBadFrames = 0
        }
        tracker.reset()
        for id in tracker.lost { close(id, index: index, t: t, reason: .end, emit: emit) }
        observations.removeAll()
    }

    /// A track ended: its open intervals end (smile, mouth, eyes closed) and `face_lost` follows.
    private func close(_ id: Int, index: Int, t: Double, reason: LostReason = .lost, emit: (Event) -> Void) {
        if let slot = expressions.firstIndex(where: { $0.id == id }) {
            expressions[slot].tracker.lost(t: t) { emit(Event(t: t, frame: index, EventPayload($0, face: id))) }
            expressions.remove(at: slot)
        }
        emit(Event(t: t, frame: index, .faceLost(face: id, reason: reason)))
    }
}

extension FrameProcessor {
    /// Reads `source` up to its next frame that can be read and processes it, emitting its
    /// events. A frame the source cannot read is skipped (`skip`, whose reports go to `emit` too)
    /// and reading goes on. Returns what it made of the frame, or nil when the source has ended.
    public func processNext(from source: inout some FrameSource, emit: (Event) -> Void) throws -> FrameResult? {
        while true {
            do {
                guard let frame = try source.nextFrame() else { return nil }
                return process(frame, emit: emit)
            } catch let error as FrameError {
                skip(index: error.index, t: error.t, because: error.problem, emit: emit)
            }
        }
    }
}
