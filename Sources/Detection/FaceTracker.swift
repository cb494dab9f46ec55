import Foundation
import Imaging
import Landmarks

/// Finds faces and follows them: the full-frame cascade detector runs only when nothing is
/// tracked, once per `redetectInterval`, or when a track fails its check; in between each face's
/// box comes from its previous landmarks and a cheap cascade check on a small window around it
/// (turned upright by the face's roll) confirms it is still a face.
///
/// Frontal cascades only find upright faces, so while nothing is tracked the detector looks at
/// the frame turned by each of `searchAngles` in turn, one angle per frame: a head tilted by
/// 20° is found within three frames, and once found it is tracked at any tilt.
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
    /// Time spent per stage in the last update.
    public private(set) var timings = TrackerTimings()

    public let settings: TrackerSettings
    private var detector: CascadeDetector
    private var verifier: CascadeDetector
    private let predictor: ShapePredictor
    private var nextID = 1
    private var lastDetection = -Double.infinity
    private var detections: [FaceBox] = []
    private var window = GrayImage(width: 0, height: 0)
    private var windowHits: [FaceBox] = []
    private var turned = GrayImage(width: 0, height: 0)
    private var searchTurn = 0

    /// Tilts (radians) the detector tries in turn while no face is tracked.
    private static let searchAngles = [0, 20 * Double.pi / 180, -20 * Double.pi / 180]

    /// Side, in pixels, that the expected cascade face is scaled to in the verification window.
    private static let verifyFace = 40.0
    /// The verification window's side in expected face sides.
    private static let verifySpan = 1.6

    /// Creates a tracker around a full-frame detector (whose settings set the face size limits)
    /// and the landmark model.
    public init(detector: CascadeDetector, predictor: ShapePredictor, settings: TrackerSettings = TrackerSettings()) throws {
        self.detector = detector
        self.predictor = predictor
        self.settings = settings
        var verifySettings = detector.settings
        verifySettings.minNeighbors = 1
        verifySettings.minSize = Int(Self.verifyFace * 0.8)
        verifySettings.maxSize = Int(Self.verifyFace * 1.3)
        verifier = try CascadeDetector(classifier: detector.classifier, settings: verifySettings)
    }

    /// Forgets every track (their ids are reported in `lost`).
    public func reset() {
        found.removeAll(keepingCapacity: true)
        lost.removeAll(keepingCapacity: true)
        for face in faces { lost.append(face.id) }
        faces.removeAll(keepingCapacity: true)
        lastDetection = -.infinity
    }

    /// Processes one frame taken at time `t` (seconds).
    public func update(_ image: GrayImage, t: Double) {
        found.removeAll(keepingCapacity: true)
        lost.removeAll(keepingCapacity: true)
        detectorRan = false
        timings = TrackerTimings()
        if t < lastDetection { lastDetection = -.infinity }  // the clock restarted
        var needDetection = faces.isEmpty || t - lastDetection >= settings.redetectInterval

        for i in faces.indices {
            let box = predictor.box(fitting: faces[i].shape)
            guard isPlausible(box, in: image) else {
                faces[i].misses = settings.missesToLose
                continue
            }
            timings.time(\.landmarks) { predictor.fit(image, box: box, into: &faces[i].shape) }
            faces[i].box = box
            faces[i].age += 1
            if faces[i].age % settings.verifyEvery == 0 {
                let roll = Self.roll(of: faces[i].shape)
                if timings.time(\.verification, { verify(box, roll: roll, in: image) }) {
                    faces[i].misses = 0
                } else {
                    faces[i].misses += 1
                    needDetection = true
                }
            }
        }
        if needDetection && !image.isEmpty {
            timings.time(\.detection) { detect(image, t: t) }
        }
        removeLostAndDuplicateTracks()
    }

    /// Runs the full-frame detector: detections over a track confirm it, others start new tracks.
    private func detect(_ image: GrayImage, t: Double) {
        let angle = faces.isEmpty ? Self.searchAngles[searchTurn % Self.searchAngles.count] : 0
        if angle == 0 {
            detector.detect(image, into: &detections)
        } else {
            let cx = Double(image.width) / 2, cy = Double(image.height) / 2
            image.resample(centerX: cx, centerY: cy, scale: 1, angle: angle,
                           toWidth: image.width, height: image.height, into: &turned)
            detector.detect(turned, into: &detections)
            // Back to the frame: turn each box centre about the frame centre; sizes are unchanged.
            for i in detections.indices {
                let u = detections[i].centerX - cx, v = detections[i].centerY - cy
                let x = cx + cos(angle) * u - sin(angle) * v, y = cy + sin(angle) * u + cos(angle) * v
                detections[i].x = Int((x - Double(detections[i].width) / 2).rounded())
                detections[i].y = Int((y - Double(detections[i].height) / 2).rounded())
            }
        }
        searchTurn = detections.isEmpty ? searchTurn + 1 : 0
        detectorRan = true
        detectorRuns += 1
        lastDetection = t
        facesInView = detections.count
        detections.sort { $0.area > $1.area }
        for detection in detections {
            let box = settings.calibration.modelBox(for: detection)
            if let index = faces.firstIndex(where: { $0.box.iou(box) > 0.3 }) {
                faces[index].misses = 0
                continue
            }
            guard faces.count < settings.maxFaces else { continue }
            // Fit in the calibrated box, then once more in the box those landmarks call for.
            var shape = predictor.fit(image, box: box)
            let refined = predictor.box(fitting: shape)
            guard isPlausible(refined, in: image) else { continue }
            predictor.fit(image, box: refined, into: &shape)
            faces.append(TrackedFace(id: nextID, box: refined, shape: shape))
            found.append(nextID)
            nextID += 1
        }
    }

    /// Whether the cascade still sees a face where the track says one is, looking only at a small
    /// window around it scaled to a fixed size (so the check costs the same for any face size).
    private func verify(_ box: FaceBox, roll: Double, in image: GrayImage) -> Bool {
        let expected = settings.calibration.cascadeBox(for: box)
        let pixels = Int((Self.verifyFace * Self.verifySpan).rounded())
        // The cascade box's centre relative to the model box's, turned with the face.
        let dx = expected.centerX - box.centerX, dy = expected.centerY - box.centerY
        let cx = box.centerX + cos(roll) * dx - sin(roll) * dy
        let cy = box.centerY + sin(roll) * dx + cos(roll) * dy
        image.resample(centerX: cx, centerY: cy, scale: Double(expected.width) / Self.verifyFace, angle: roll,
                       toWidth: pixels, height: pixels, into: &window)
        verifier.detect(window, into: &windowHits)
        let centre = Double(pixels) / 2
        return windowHits.contains { hit in
            abs(hit.centerX - centre) < 0.3 * Self.verifyFace && abs(hit.centerY - centre) < 0.3 * Self.verifyFace
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
        let minimum = max(8, detector.settings.minSize / 2)
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
