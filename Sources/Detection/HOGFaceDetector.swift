import FaceCore
import Foundation
import HOGDetection
import Imaging

/// ``FaceDetector`` on dlib's HOG frontal face detector (`HOGDetection.FrontalFaceDetector`).
///
/// dlib's 68-point landmark model was trained on this detector's boxes, so they go to the model
/// as they are: dlib's inclusive `rectangle(left, top, right, bottom)` becomes
/// `FaceBox(x: left, y: top, width: right − left + 1, height: bottom − top + 1)`, which
/// `ShapePredictor.fit` reads back as the same rectangle, and a new face is fitted once, as
/// `dlib.shape_predictor(image, detection)` does.
///
/// Look 0 scans with `settings.upsample`; with `settings.smallFaceLook` a full search adds a look
/// upsampled once more (faces from about 40 px; about four times the cost). A tracked face is
/// confirmed by scanning a small window around it, turned upright by its roll and scaled so the
/// face is 90 px wide: a fixed cost for any face size or tilt. The check accepts scores down to
/// `confirmSlack` below the detection threshold: it asks whether the face the landmarks follow is
/// still a face, not whether a new one is there, and a head turned 40° scores lower. It looks
/// only at windows centred near the face and stops at the first that scores
/// (`FrontalFaceDetector.findsFace(centredIn:…)`).
public struct HOGFaceDetector: FaceDetector {
    public let model: FrontalFaceDetector
    public let settings: HOGSettings
    public var kind: DetectorKind { .hog }
    public var looks: Int { settings.smallFaceLook && settings.upsample < Self.maxUpsample ? 2 : 1 }
    public var refits: Bool { false }
    public var smallestFace: Int { model.windowSize.width >> (settings.upsample + (looks - 1)) }

    private let workspace: HOGWorkspace
    private var window = GrayImage(width: 0, height: 0)
    /// The last scan's detections (storage reused from call to call).
    private var hits: [FaceDetection] = []

    /// Most upsamplings (each quadruples the scanned area).
    public static let maxUpsample = 3
    /// Face width, in pixels, in the confirmation window.
    private static let confirmFace = 90.0
    /// The confirmation window's side in face widths.
    private static let confirmSpan = 1.8
    /// The confirmation window's side in pixels.
    private static let confirmSide = Int((confirmFace * confirmSpan).rounded())
    /// How far below the detection threshold a confirmation may score.
    public static let confirmSlack = 0.6

    public init(model: FrontalFaceDetector, settings: HOGSettings = HOGSettings()) {
        self.model = model
        self.settings = settings
        // A second thread only helps when there is a second processor to run it.
        workspace = HOGWorkspace(threads: min(settings.threads, max(1, ProcessInfo.processInfo.activeProcessorCount)))
    }

    public mutating func detect(_ image: GrayImage, look: Int, into faces: inout [DetectedFace]) {
        faces.removeAll(keepingCapacity: true)
        guard !image.isEmpty else { return }
        let scan = Self.scan(width: image.width, height: image.height, upsample: settings.upsample + (look % looks),
                             window: model.windowSize.width)
        var area = ScanArea.whole(width: image.width, height: image.height)
        area.faceWidths = scan.faceWidths
        model.detect(image, in: area, upsample: scan.upsample, adjustThreshold: settings.adjustThreshold,
                     using: workspace, into: &hits)
        for d in hits {
            let box = FaceBox(x: d.left, y: d.top, width: d.width, height: d.height)
            faces.append(DetectedFace(box: box, detectorBox: box, score: d.score, filter: d.detector))
        }
        faces.sort { $0.box.area > $1.box.area }
    }

    /// How a look with `upsample` scans a `width` × `height` frame: the faces it finds are as
    /// large, relative to the frame, as on a 640×480 frame. A 640×480 frame (or a smaller one) is
    /// upsampled `upsample` times and scanned at every level, as dlib does. A larger frame is
    /// `scale` = min(width / 640, height / 480) times larger, so its smallest face is `scale`
    /// times larger too: it is upsampled only as far as that face needs, and the pyramid levels
    /// whose window is smaller than that face (less one level) are not scanned. A 1920×1080 frame
    /// (`scale` 2.25) is scanned for faces from about 170 px at upsample 0, at about a fifth of
    /// the cost of its whole pyramid; the levels it scans give exactly dlib's detections there.
    static func scan(width: Int, height: Int, upsample: Int, window: Int) -> (upsample: Int, faceWidths: ClosedRange<Double>?) {
        let scale = min(Double(width) / 640, Double(height) / 480)
        guard scale > 1 else { return (upsample, nil) }
        let smallest = Double(window) / Double(1 << upsample) * scale
        var needed = 0
        while Double(window) / Double(1 << needed) > smallest && needed < upsample { needed += 1 }
        return (needed, (smallest / 1.2)...Double.infinity)
    }

    public mutating func confirm(_ box: FaceBox, roll: Double, in image: GrayImage) -> Bool {
        guard box.width > 0, !image.isEmpty else { return false }
        image.resample(centerX: box.centerX, centerY: box.centerY, scale: Double(box.width) / Self.confirmFace,
                       angle: roll, toWidth: Self.confirmSide, height: Self.confirmSide, into: &window)
        return model.findsFace(centredIn: window, within: 0.3 * Self.confirmFace,
                               faceWidths: (Self.confirmFace / 1.5)...(Self.confirmFace * 1.5),
                               adjustThreshold: settings.adjustThreshold - Self.confirmSlack, using: workspace)
    }

    public func confirmationArea(of box: FaceBox, roll: Double) -> PixelRegion {
        GrayImage.resampledArea(centerX: box.centerX, centerY: box.centerY, scale: Double(box.width) / Self.confirmFace,
                                angle: roll, width: Self.confirmSide, height: Self.confirmSide)
    }
}
