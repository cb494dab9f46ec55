import FaceCore
import Imaging

/// A face detector as the tracker and the commands use it: a full-frame scan, and a scan of the
/// area around a tracked face. Every box it returns is in the convention of dlib's 68-point
/// landmark model (the box dlib's HOG detector would draw), ready for `ShapePredictor.fit`.
///
/// A full search may take several looks (the cascade looks at the frame upright and turned ±20°,
/// one look per frame while nothing is tracked; HOG may add a look with one more upsampling for
/// small faces): `detect(_:look:into:)` runs one of them, `detectAll(_:)` all of them.
public protocol FaceDetector {
    /// Which detector this is.
    var kind: DetectorKind { get }
    /// Looks that make a full search (at least 1); look 0 is the one run while faces are tracked.
    var looks: Int { get }
    /// Whether a new face is fitted twice (its boxes are calibrated from another convention):
    /// see `ShapePredictor.fitNewFace`.
    var refits: Bool { get }
    /// Smallest face side, in model-box pixels, the detector finds.
    var smallestFace: Int { get }
    /// One full-frame look: the faces found, largest first, written into `faces` (storage reused).
    mutating func detect(_ image: GrayImage, look: Int, into faces: inout [DetectedFace])
    /// Whether a face is still in `box` (a model box) tilted by `roll` radians, scanning only the
    /// area around it.
    mutating func confirm(_ box: FaceBox, roll: Double, in image: GrayImage) -> Bool
    /// The pixels `confirm(box, roll:, in:)` reads (before clipping to the image).
    func confirmationArea(of box: FaceBox, roll: Double) -> PixelRegion
}

extension FaceDetector {
    /// Every look of a full search, merged (a face seen by several looks is reported once, from
    /// the earliest look): what `facewatch detect` prints and `facewatch landmarks` fits.
    public mutating func detectAll(_ image: GrayImage) -> [DetectedFace] {
        var all: [DetectedFace] = []
        var faces: [DetectedFace] = []
        for look in 0..<looks {
            detect(image, look: look, into: &faces)
            for face in faces where !all.contains(where: { $0.box.iou(face.box) > 0.3 }) {
                all.append(face)
            }
        }
        return all.sorted { $0.box.area > $1.box.area }
    }
}
