import FaceCore
import Foundation
import Imaging

/// ``FaceDetector`` on an OpenCV cascade (``CascadeDetector``): its boxes are mapped to the
/// landmark model's convention by a ``BoxCalibration``.
///
/// Frontal cascades only find upright faces, so a full search takes three looks: the frame
/// upright, then turned by +20° and −20° (a head tilted by 20° is found within three frames; once
/// found it is tracked at any tilt). A tracked face is confirmed by running the cascade on a small
/// window around it, turned upright by the face's roll and scaled so the expected face is 40 px:
/// the check costs the same for any face size.
public struct CascadeFaceDetector: FaceDetector {
    public let detector: CascadeDetector
    public let calibration: BoxCalibration
    public var kind: DetectorKind { .haar }
    public var looks: Int { Self.angles.count }
    public var refits: Bool { true }
    public var smallestFace: Int {
        calibration.modelBox(for: FaceBox(x: 0, y: 0, width: max(detector.settings.minSize, detector.classifier.windowWidth),
                                          height: max(detector.settings.minSize, detector.classifier.windowHeight))).width
    }

    private var scanner: CascadeDetector
    private var verifier: CascadeDetector
    private var boxes: [FaceBox] = []
    private var turned = GrayImage(width: 0, height: 0)
    private var window = GrayImage(width: 0, height: 0)
    private var windowHits: [FaceBox] = []

    /// Tilts (radians) of the looks.
    private static let angles = [0, 20 * Double.pi / 180, -20 * Double.pi / 180]
    /// Side, in pixels, that the expected cascade face is scaled to in the confirmation window.
    private static let verifyFace = 40.0
    /// The confirmation window's side in expected face sides.
    private static let verifySpan = 1.6
    /// The verification window's side in pixels.
    private static let verifySide = Int((verifyFace * verifySpan).rounded())

    /// - Throws: ``DetectorSettingsError`` when the settings are unusable.
    public init(detector: CascadeDetector, calibration: BoxCalibration) throws {
        self.detector = detector
        self.calibration = calibration
        scanner = detector
        var verifySettings = detector.settings
        verifySettings.minNeighbors = 1
        verifySettings.minSize = Int(Self.verifyFace * 0.8)
        verifySettings.maxSize = Int(Self.verifyFace * 1.3)
        verifier = try CascadeDetector(classifier: detector.classifier, settings: verifySettings)
    }

    public mutating func detect(_ image: GrayImage, look: Int, into faces: inout [DetectedFace]) {
        faces.removeAll(keepingCapacity: true)
        let angle = Self.angles[((look % looks) + looks) % looks]
        if angle == 0 {
            scanner.detect(image, into: &boxes)
        } else {
            let cx = Double(image.width) / 2, cy = Double(image.height) / 2
            image.resample(centerX: cx, centerY: cy, scale: 1, angle: angle,
                           toWidth: image.width, height: image.height, into: &turned)
            scanner.detect(turned, into: &boxes)
            // Back to the frame: turn each box centre about the frame centre; sizes are unchanged.
            for i in boxes.indices {
                let u = boxes[i].centerX - cx, v = boxes[i].centerY - cy
                let x = cx + cos(angle) * u - sin(angle) * v, y = cy + sin(angle) * u + cos(angle) * v
                boxes[i].x = Int((x - Double(boxes[i].width) / 2).rounded())
                boxes[i].y = Int((y - Double(boxes[i].height) / 2).rounded())
            }
        }
        boxes.sort { $0.area > $1.area }
        for box in boxes { faces.append(DetectedFace(box: calibration.modelBox(for: box), detectorBox: box)) }
    }

    public mutating func confirm(_ box: FaceBox, roll: Double, in image: GrayImage) -> Bool {
        let pixels = Self.verifySide
        let (cx, cy, scale) = verifyWindow(of: box, roll: roll)
        image.resample(centerX: cx, centerY: cy, scale: scale, angle: roll, toWidth: pixels, height: pixels, into: &window)
        verifier.detect(window, into: &windowHits)
        let centre = Double(pixels) / 2
        return windowHits.contains { hit in
            abs(hit.centerX - centre) < 0.3 * Self.verifyFace && abs(hit.centerY - centre) < 0.3 * Self.verifyFace
        }
    }

    public func confirmationArea(of box: FaceBox, roll: Double) -> PixelRegion {
        let (cx, cy, scale) = verifyWindow(of: box, roll: roll)
        return GrayImage.resampledArea(centerX: cx, centerY: cy, scale: scale, angle: roll,
                                       width: Self.verifySide, height: Self.verifySide)
    }

    /// The verification window's centre and scale: the cascade box's centre relative to the
    /// model box's, turned with the face.
    private func verifyWindow(of box: FaceBox, roll: Double) -> (x: Double, y: Double, scale: Double) {
        let expected = calibration.cascadeBox(for: box)
        let dx = expected.centerX - box.centerX, dy = expected.centerY - box.centerY
        return (box.centerX + cos(roll) * dx - sin(roll) * dy, box.centerY + sin(roll) * dx + cos(roll) * dy,
                Double(expected.width) / Self.verifyFace)
    }
}
