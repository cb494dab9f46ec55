/// The pyramid for one frame size: which scales are scanned, each level's size and resize
/// tables, and the cascade compiled for the shared integral stride.
struct ScanPlan {
    struct Level {
        /// OpenCV's `(float)factor`.
        var scale: Float
        var width: Int
        var height: Int
        var resizer: LinearResizer
    }

    enum Compiled {
        case haar(CompiledCascade<HaarTest>)
        case lbp(CompiledCascade<LBPTest>)
    }

    let imageWidth: Int
    let imageHeight: Int
    var levels: [Level] = []
    var compiled: Compiled?

    /// OpenCV's scale selection in `detectMultiScaleNoGrouping`: `factor` runs over
    /// `scaleFactor^k` (in `double`); stop once the window exceeds `maxSize` or the image, skip
    /// windows below `minSize`; a level is `cvRound(size / (float)factor)` pixels.
    init(classifier: CascadeClassifier, settings: DetectorSettings, width: Int, height: Int) {
        imageWidth = width
        imageHeight = height
        let maxW = settings.maxSize > 0 ? settings.maxSize : width
        let maxH = settings.maxSize > 0 ? settings.maxSize : height
        var factor = 1.0
        while true {
            let windowW = Int((Double(classifier.windowWidth) * factor).rounded(.toNearestOrEven))
            let windowH = Int((Double(classifier.windowHeight) * factor).rounded(.toNearestOrEven))
            if windowW > maxW || windowH > maxH || windowW > width || windowH > height { break }
            defer { factor *= settings.scaleFactor }
            if windowW < settings.minSize || windowH < settings.minSize { continue }
            let scale = Float(factor)
            let levelW = Int((Float(width) / scale).rounded(.toNearestOrEven))
            let levelH = Int((Float(height) / scale).rounded(.toNearestOrEven))
            guard levelW >= classifier.windowWidth, levelH >= classifier.windowHeight else { continue }
            levels.append(Level(scale: scale, width: levelW, height: levelH,
                                resizer: LinearResizer(sourceWidth: width, sourceHeight: height,
                                                       width: levelW, height: levelH)))
        }
    }

    func matches(width: Int, height: Int) -> Bool {
        width == imageWidth && height == imageHeight
    }

    /// Resolves the cascade's features for the integral planes' layout.
    mutating func compile(_ classifier: CascadeClassifier, stride: Int, tiltedOffset: Int) {
        switch classifier.featureType {
        case .haar:
            compiled = .haar(CompiledCascade(haar: classifier, stride: stride, tiltedOffset: tiltedOffset))
        case .lbp:
            compiled = .lbp(CompiledCascade(lbp: classifier, stride: stride))
        }
    }
}
