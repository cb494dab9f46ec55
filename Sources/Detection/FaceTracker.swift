import Foundation
import Imaging
import Landmarks

/// Finds faces and follows them: a full-frame scan by the ``FaceDetector`` finds faces; in
/// between scans each face's box comes from its previous landmarks, and every few frames a scan
/// of the area around it confirms it is still a face.
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
    /// The boxes of those faces.
    public var boxesInView: [FaceBox] { detections.map(\.box) }
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
    private var detections: [DetectedFace] = []
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
        found.removeAll(keepingCapacity: true)
        lost.removeAll(keepingCapacity: true)
        detectorRan = false
        timings = TrackerTimings()
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
                timings.time(\.landmarks) { predictor.fit(image, box: box, into: &faces[i].shape) }
                continue
            }
            // The check scans around the box the landmarks are fitted in, turned by the tilt
            // they had coming into this frame: it needs nothing from the fit, so it runs on the
            // worker meanwhile.
            let roll = Self.roll(of: faces[i].shape)
            worker?.begin(image, box: box, roll: roll)
            timings.time(\.landmarks) { predictor.fit(image, box: box, into: &faces[i].shape) }
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
        if faces.isEmpty && !image.isEmpty {
            needDetection = timings.time(\.detection) { emptyViewIsDue(image, t: t) }
        }
        if needDetection && !image.isEmpty {
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
            if let index = faces.firstIndex(where: { $0.box.iou(box) > 0.3 }) {
                faces[index].misses = 0
                continue
            }
            guard faces.count < settings.maxFaces else { continue }
            guard let (refined, shape) = predictor.fitNewFace(image, box: box, refit: detector.refits, isPlausible: { isPlausible($0, in: image) }) else { continue }
            faces.append(TrackedFace(id: nextID, box: refined, shape: shape))
            found.append(nextID)
            nextID += 1
        }
    }

    /// The face's tilt on screen (radians, clockwise positive) from the line between the eye centres.
    private static func roll(of shape: FaceShape) -> Double {
        guard shape.count >= 48 else { return 0 }
        var right = SIMD2<Float>.zero, left = SIMD2<Float>.zero
        for i in 36...41 { right += shape[i] }
        for i in 42...47 { left += shape[i] }
        let d = (left - right) / 6
        return atan2(Double(d.y), Double(d.x))
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
