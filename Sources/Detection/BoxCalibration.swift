import FaceCore

/// Maps a cascade detector's box to the box dlib's landmark model was trained on (dlib's HOG
/// detector boxes sit differently: a cascade box is wider and higher on the face). The mapping
/// is a scale about the box centre and a shift, both relative to the box size.
public struct BoxCalibration: Sendable, Equatable {
    /// Side of the model box over the side of the cascade box.
    public var scale: Double
    /// Shift of the centre, in cascade box widths (x) and heights (y).
    public var shiftX: Double
    public var shiftY: Double

    public init(scale: Double, shiftX: Double, shiftY: Double) {
        self.scale = scale
        self.shiftX = shiftX
        self.shiftY = shiftY
    }

    /// Applies the mapping to a detector box.
    public func modelBox(for box: FaceBox) -> FaceBox {
        let side = Double(box.width) * scale
        let cx = box.centerX + shiftX * Double(box.width)
        let cy = box.centerY + shiftY * Double(box.height)
        let s = Int(side.rounded())
        return FaceBox(x: Int((cx - side / 2).rounded()), y: Int((cy - side / 2).rounded()), width: s, height: s)
    }

    /// The inverse mapping: where the cascade would put its box around a face in `box`.
    public func cascadeBox(for box: FaceBox) -> FaceBox {
        let side = Double(box.width) / scale
        let cx = box.centerX - shiftX * side
        let cy = box.centerY - shiftY * side
        let s = Int(side.rounded())
        return FaceBox(x: Int((cx - side / 2).rounded()), y: Int((cy - side / 2).rounded()), width: s, height: s)
    }

    // Measured by Scripts/calibrate_boxes.py: median over the fixture faces (tilted, turned, mirrored,
    // 80–250 px) of dlib HOG box side / cascade box side and of the centre shift. Horizontal shifts
    // measured 0.01–0.02 and are set to 0: faces are symmetric and the sample holds mirror images.

    /// `haarcascade_frontalface_alt.xml` (the default cascade).
    public static let haarFrontalFaceAlt = BoxCalibration(scale: 0.896, shiftX: 0, shiftY: 0.093)
    /// `haarcascade_frontalface_alt2.xml`.
    public static let haarFrontalFaceAlt2 = BoxCalibration(scale: 0.940, shiftX: 0, shiftY: 0.102)
    /// `haarcascade_frontalface_default.xml`.
    public static let haarFrontalFaceDefault = BoxCalibration(scale: 0.905, shiftX: 0, shiftY: 0.102)
    /// `lbpcascade_frontalface_improved.xml`.
    public static let lbpFrontalFaceImproved = BoxCalibration(scale: 1.282, shiftX: 0, shiftY: 0.026)
    /// `lbpcascade_frontalface.xml`.
    public static let lbpFrontalFace = BoxCalibration(scale: 0.950, shiftX: 0, shiftY: 0.097)

    /// The calibration for a cascade file, by its file name; other cascades get the default
    /// cascade's (the refit from landmarks that follows absorbs most of the difference).
    public static func forCascade(at path: String) -> BoxCalibration {
        switch path.split(separator: "/").last.map(String.init) ?? path {
        case "haarcascade_frontalface_alt2.xml": return .haarFrontalFaceAlt2
        case "haarcascade_frontalface_default.xml": return .haarFrontalFaceDefault
        case "lbpcascade_frontalface_improved.xml": return .lbpFrontalFaceImproved
        case "lbpcascade_frontalface.xml": return .lbpFrontalFace
        default: return .haarFrontalFaceAlt
        }
    }
}
