/// A part of an image to scan for faces, for re-finding a tracked face cheaply.
///
/// Scanning an area gives exactly what dlib gives on the image cropped to `left...right` ×
/// `top...bottom` (clamped to the image), with the boxes moved back into image coordinates.
/// `faceWidths`, when set, also limits the pyramid levels scanned to those whose detection
/// window (about 80 px at level 0, ×1.2 per level) fits a face of that width.
public struct ScanArea: Sendable, Equatable {
    public var left: Int
    public var top: Int
    public var right: Int
    public var bottom: Int
    public var faceWidths: ClosedRange<Double>?

    public init(left: Int, top: Int, right: Int, bottom: Int, faceWidths: ClosedRange<Double>? = nil) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
        self.faceWidths = faceWidths
    }

    /// All of an image `width × height`.
    public static func whole(width: Int, height: Int) -> ScanArea {
        ScanArea(left: 0, top: 0, right: width - 1, bottom: height - 1)
    }

    /// The area around a tracked face: its box grown by `margin` × its size on every side,
    /// scanning only the window sizes from `1/scale` to `scale` times the face's width.
    public static func around(_ face: FaceDetection, margin: Double = 0.3, scale: Double = 1.3) -> ScanArea {
        let grow = Int((Double(max(face.width, face.height)) * margin).rounded())
        let width = Double(face.width)
        return ScanArea(left: face.left - grow, top: face.top - grow, right: face.right + grow, bottom: face.bottom + grow,
                        faceWidths: (width / scale)...(width * scale))
    }
}
