import Detection
import FaceCore
import Foundation
import Imaging
import Landmarks

/// Finds faces and follows them: a full-frame scan by the ``FaceDetector`` finds faces; in
/// between scans each face's box comes from its previous landmarks, and every few frames a scan
/// of the area around it confirms it is still a face. A scan whose box overlaps a track only
/// loosely, or holds a smaller track mostly inside it, re-seeds the track's landmarks from that
/// box (`TrackerSettings.reseedOverlap`).
///
/// When full-frame scans run:
/// - While faces are tracked: every `redetectInterval` (a second person walking in, a face lost
///   to a fast turn), and at once when a track fails its check.
/// - While nothing is tracked: when the view changed since it was last scanned (judged by a
///   ``MotionGate``), a full search at most every `motionScanInterval`; a search of several looks
///   (the cascade's turned frames, HOG's small-face look) runs its looks on consecutive frames.
///   A still view gets look 0 alone every `emptyScanInterval`.
///
/// After `update(_:t:)`, `faces` holds the tracked faces of that frame, `found` the ids that
/// appeared and `lost` the ids that disappeared. Buffers are reused: no allocation per frame
/// in steady state.
public final class FaceTracker {
    public private(set) var faces: [TrackedFace] = []
    public private(set) var found: [Int] = []
    public private(set) var lost: [Int] = []
    /// Whether the full-frame detector ran on the last frame, and how often it has run.
    public private(set) var detectorRan = false
    public private(set) var detectorRuns = 0
    /// Faces the full-frame detector saw the last time it ran (more than `maxFaces` is possible).
    public private(set) var facesInView = 0
    /// Those faces, largest first.
    public private(set) var detections: [DetectedFace] = []
    /// Time spent per stage in the last update.
    public private(set) var timings = TrackerTimings()

    public let settings: TrackerSettings
    /// The detector's kind (`hog` or `haar`).
    public var detectorKind: DetectorKind { detector.kind }
    /// Whether a face's window check runs on a second thread while its fit runs (`settings.threads`).
    public var checksAlongsideFits: Bool { worker != nil }
    private var detector: any FaceDetector
    private let predictor: ShapePredictor
    /// The second thread for window checks alongside fits (`settings.threads` 2).
    private let worker: CheckWorker?
    private var motion = MotionGate()
    private var nextID = 1
    private var lastDetection = -Double.infinity
    /// The next look of a search in progress (0: none in progress).
    private var pendingLook = 0
    /// Whether the empty-view scan under way is a full search (every look) or look 0 alone.
    private var fullSearch = true

    /// Creates a tracker around a detector (whose smallest face bounds the plausible boxes) and
    /// the landmark model.
    public init(detector: any FaceDetector, predictor: ShapePredictor, settings: TrackerSettings = TrackerSettings()) {
        self.detector = detector
        self.predictor = predictor
        self.settings = settings
        // A second thread only helps when there is a second processor to run it.
        worker = settings.threads > 1 && ProcessInfo.processInfo.activeProcessorCount > 1 ? CheckWorker(detector: detector) : nil
    }

    deinit {
        worker?.stop()
    }

    /// Forgets every track (their ids are reported in `lost`).
    public func reset() {
        found.removeAll(keepingCapacity: true)
        lost.removeAll(keepingCapacity: true)
        for face in faces { lost.append(face.id) }
        faces.removeAll(keepingCapacity: true)
        lastDetection = -.infinity
        pendingLook = 0
        motion.reset()
    }

    /// Processes one frame taken at time `t` (seconds).
    public func update(_ image: GrayImage, t: Double) {
        update(image, t: t, decoded: nil, complete: { nil })
    }

    /// The part of the next frame, taken at `t`, that `update` reads while it only follows the
    /// tracked faces: around each face, the area its landmark fit starts in and, on a frame that
    /// checks it, the window of its check. Nil when `update` will read the whole frame (nothing
    /// tracked, or a full-frame scan due).
    public func pixelsNeeded(at t: Double, width: Int, height: Int) -> PixelRegion? {
        guard !faces.isEmpty, t >= lastDetection, t - lastDetection < settings.redetectInterval else { return nil }
        var region = PixelRegion(x: 0, y: 0, width: 0, height: 0)
        for face in faces {
            let box = predictor.box(fitting: face.shape)
            region = region.union(Self.fitArea(of: box))
            if (face.age + 1) % settings.verifyEvery == 0 {
                region = region.union(detector.confirmationArea(of: box, roll: face.shape.roll))
            }
        }
        return region.clipped(width: width, height: height)
    }

    /// Where a fit in `box` is expected to sample: the box and half its width around it (the
    /// model's features reach a little past the landmarks). A fit that samples outside what was
    /// decoded is done again on the whole frame, so this only needs to be right most of the time.
    private static func fitArea(of box: FaceBox) -> PixelRegion {
        let margin = Double(box.width) / 2
        return PixelRegion(minX: Double(box.x) - margin, minY: Double(box.y) - margin,
                           maxX: Double(box.x + box.width) + margin, maxY: Double(box.y + box.height) + margin)
    }

    /// Processes one frame taken at time `t` (seconds) of which only `decoded` has been decoded
    /// (nil: all of it), the rest of `image` holding stale pixels. When this frame needs more
    /// (a check or fit reaching further, a full-frame scan), `complete` gives the whole frame;
    /// the result is then the same as `update(_:t:)` on the whole frame. A `complete` that
    /// gives nil (the rest of the frame does not decode) skips this frame's full-frame scan.
    public func update(_ image: GrayImage, t: Double, decoded: PixelRegion?, complete: () -> GrayImage?) {
        found.removeAll(keepingCapacity: true)
        lost.removeAll(keepingCapacity: true)
        detectorRan = false
        timings = TrackerTimings()
        var image = image
        var valid = decoded ?? .whole(width: image.width, height: image.height)
        var canComplete = decoded != nil
        /// Makes `image` the whole frame; false when it cannot be.
        func completeImage() -> Bool {
            guard valid != .whole(width: image.width, height: image.height) else { return true }
            guard canComplete, let whole = complete() else {
                canComplete = false
                return false
            }
            image = whole
            valid = .whole(width: image.width, height: image.height)
            return true
        }
        /// Fits face `i` in its box, on the whole frame when the fit on what was decoded
        /// sampled outside it.
        func fitFace(_ i: Int) {
            let fitted = timings.time(\.landmarks) { predictor.fit(image, box: faces[i].box, into: &faces[i].shape, within: valid) }
            guard !fitted, completeImage() else { return }
            timings.time(\.landmarks) { predictor.fit(image, box: faces[i].box, into: &faces[i].shape) }
        }
        if t < lastDetection { lastDetection = -.infinity }  // the clock restarted
        var needDetection = !faces.isEmpty && t - lastDetection >= settings.redetectInterval

        for i in faces.indices {
            let box = predictor.box(fitting: faces[i].shape)
            guard isPlausible(box, in: image) else {
                faces[i].misses = settings.missesToLose
                continue
            }
            faces[i].box = box
            faces[i].age += 1
            guard faces[i].age % settings.verifyEvery == 0 else {
                fitFace(i)
                continue
            }
            // The check scans around the box the landmarks are fitted in, turned by the tilt
            // they had coming into this frame: it needs nothing from the fit, so it runs on the
            // worker meanwhile.
            let roll = faces[i].shape.roll
            if !valid.contains(detector.confirmationArea(of: box, roll: roll).clipped(width: image.width, height: image.height)) {
                _ = completeImage()
            }
            worker?.begin(image, box: box, roll: roll)
            fitFace(i)
            let confirmed: Bool
            if let worker {
                let check = worker.wait()
                confirmed = check.confirmed
                timings.verification += check.seconds
            } else {
                confirmed = timings.time(\.verification) { detector.confirm(box, roll: roll, in: image) }
            }
            if confirmed {
                faces[i].misses = 0
            } else {
                faces[i].misses += 1
                needDetection = true
            }
        }
        if faces.isEmpty && !image.isEmpty && completeImage() {
            needDetection = timings.time(\.detection) { emptyViewIsDue(image, t: t) }
        }
        if needDetection && !image.isEmpty && completeImage() {
            timings.time(\.detection) { detect(image, t: t) }
        }
        removeLostAndDuplicateTracks()
    }

    /// Whether an empty view is due for a scan: a search in progress continues on the next frame;
    /// a view that changed since it was last scanned gets a full search (every look) once
    /// `motionScanInterval` has passed; a still view gets look 0 every `emptyScanInterval` (a
    /// face cannot arrive without changing the view, so this is only a safety net).
    private func emptyViewIsDue(_ image: GrayImage, t: Double) -> Bool {
        if pendingLook > 0 { return true }
        let since = t - lastDetection
        if since >= settings.motionScanInterval && motion.changed(image) {
            fullSearch = true
            return true
        }
        fullSearch = false
        return since >= settings.emptyScanInterval
    }

    /// Runs one full-frame look: detections over a track confirm it, others start new tracks.
    private func detect(_ image: GrayImage, t: Double) {
        let look = faces.isEmpty ? pendingLook : 0
        if faces.isEmpty {  // later frames of an empty view are compared with this one
            _ = motion.changed(image)
            motion.remember()
        }
        detector.detect(image, look: look, into: &detections)
        pendingLook = faces.isEmpty && fullSearch && detections.isEmpty && look + 1 < detector.looks ? look + 1 : 0
        detectorRan = true
        detectorRuns += 1
        lastDetection = t
        facesInView = detections.count
        for detection in detections {
            let box = detection.box
            if let index = faces.firstIndex(where: { $0.box.iou(box) > 0.3 || Self.shrankInside($0.box, box) }) {
                faces[index].misses = 0
                if faces[index].box.iou(box) < settings.reseedOverlap,
                   let (refined, shape) = predictor.fitNewFace(image, box: box, refit: detector.refits, isPlausible: { isPlausible($0, in: image) }) {
                    faces[index].box = refined
                    faces[index].shape = shape
                }
                continue
            }
            guard faces.count < settings.maxFaces else { continue }
            guard let (refined, shape) = predictor.fitNewFace(image, box: box, refit: detector.refits, isPlausible: { isPlausible($0, in: image) }) else { continue }
            faces.append(TrackedFace(id: nextID, box: refined, shape: shape))
            found.append(nextID)
            nextID += 1
        }
    }

    /// Whether a track's `box` is a fit that shrank onto part of the face `detection` found: a
    /// smaller box at least half inside it. After a jump the fit can settle on a face-like shape
    /// of 0.7–0.8 the face's size, off centre, whose IoU with the detection falls below 0.3; as a
    /// new track that detection left two tracks on one face (a second face to a liveness check).
    static func shrankInside(_ box: FaceBox, _ detection: FaceBox) -> Bool {
        box.area < detection.area && box.fractionInside(detection) >= 0.5
    }

    /// A box a face could occupy: of the detector's size limits and overlapping the frame.
    private func isPlausible(_ box: FaceBox, in image: GrayImage) -> Bool {
        let minimum = max(8, detector.smallestFace / 2)
        let maximum = 2 * max(image.width, image.height)
        guard box.width >= minimum, box.width <= maximum else { return false }
        return box.centerX >= 0 && box.centerY >= 0 && box.centerX < Double(image.width) && box.centerY < Double(image.height)
    }

    /// Drops tracks that failed too many checks, and the younger of two tracks on one face.
    private func removeLostAndDuplicateTracks() {
        var index = 0
        while index < faces.count {
            let face = faces[index]
            let duplicate = faces[..<index].contains { $0.box.iou(face.box) > 0.5 }
            if face.misses >= settings.missesToLose || duplicate {
                if let position = found.firstIndex(of: face.id) {
                    found.remove(at: position)
                } else {
                    lost.append(face.id)
                }
                faces.remove(at: index)
            } else {
                index += 1
            }
        }
    }
}
