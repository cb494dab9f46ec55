import FaceCore
extension ShapePredictor {
    /// The box the model expects for a face with these landmarks: the square box in which the
    /// model's mean shape best matches `shape` (least squares over scale and translation).
    ///
    /// The model was trained on boxes from dlib's HOG detector, and its mean shape is the average
    /// face in such boxes, so this box sits where dlib's detector would put it. It is how a track
    /// carries a face from one frame to the next, and how a detector's box is refined after a
    /// first fit.
    public func box(fitting shape: FaceShape) -> FaceBox {
        let n = min(shape.count, structure.landmarks)
        guard n > 1 else { return FaceBox(x: 0, y: 0, width: 0, height: 0) }
        var meanM = SIMD2<Double>.zero, meanP = SIMD2<Double>.zero
        for i in 0..<n {
            meanM += SIMD2(Double(initialShape[2 * i]), Double(initialShape[2 * i + 1]))
            meanP += SIMD2<Double>(shape[i])
        }
        meanM /= Double(n)
        meanP /= Double(n)
        var cross = 0.0, spread = 0.0
        for i in 0..<n {
            let m = SIMD2(Double(initialShape[2 * i]), Double(initialShape[2 * i + 1])) - meanM
            let p = SIMD2<Double>(shape[i]) - meanP
            cross += (m * p).sum()
            spread += (m * m).sum()
        }
        let scale = max(cross / spread, 1)
        let origin = meanP - scale * meanM
        guard origin.x.isFinite, origin.y.isFinite, scale.isFinite, abs(origin.x) < 1e7, abs(origin.y) < 1e7, scale < 1e7 else {
            return FaceBox(x: 0, y: 0, width: 0, height: 0)
        }
        let side = Int(scale.rounded()) + 1
        return FaceBox(x: Int(origin.x.rounded()), y: Int(origin.y.rounded()), width: side, height: side)
    }
}
