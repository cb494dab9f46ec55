import FaceCore
import Imaging
import Landmarks

extension ShapePredictor {
    /// A new face's landmarks from a detector's model box. With `refit` (a calibrated cascade
    /// box), the fit is repeated in the box those landmarks call for (`box(fitting:)`), which
    /// absorbs what is left of the detector's offset; a dlib HOG box is the model's own
    /// convention and is fitted once, as dlib does. Nil when the final box is not one
    /// `isPlausible` accepts.
    public func fitNewFace(_ image: GrayImage, box: FaceBox, refit: Bool,
                           isPlausible: (FaceBox) -> Bool) -> (box: FaceBox, shape: FaceShape)? {
        var shape = fit(image, box: box)
        guard refit else { return isPlausible(box) ? (box, shape) : nil }
        let refined = self.box(fitting: shape)
        guard isPlausible(refined) else { return nil }
        fit(image, box: refined, into: &shape)
        return (refined, shape)
    }
}
