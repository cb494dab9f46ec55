/// A generic 3D face: 13 rigid landmarks (nose, eye corners, mouth corners) in millimetres.
///
/// x points to the person's left, y down, z away from the camera; the nose tip (30) is the
/// origin. x and y are dlib's mean 68-point shape (the `initial_shape` of
/// shape_predictor_68_face_landmarks.dat) scaled by 162 mm per unit box, which puts the outer
/// eye corners 93 mm apart and the eye centres 65 mm apart (adult averages); z are typical
/// anthropometric depths behind the nose tip. Brows, chin and jaw are left out: they move with
/// expressions and the jaw outline slides around the head as it turns.
public enum GenericFaceModel {
    /// iBUG indices of the model points.
    public static let indices: [Int] = [27, 28, 29, 30, 31, 33, 35, 36, 39, 42, 45, 48, 54]

    /// Model coordinates (x, y, z) in mm, in the order of `indices`.
    public static let points: [SIMD3<Double>] = [
        SIMD3(0.0, -39.1, 24),  // 27 nose bridge between the eyes
        SIMD3(0.0, -26.1, 17),  // 28
        SIMD3(0.0, -13.3, 9),  // 29
        SIMD3(0.0, 0.0, 0),  // 30 nose tip
        SIMD3(-15.5, 9.0, 20),  // 31 right nostril wing
        SIMD3(0.0, 14.0, 16),  // 33 nose base
        SIMD3(15.5, 9.0, 20),  // 35 left nostril wing
        SIMD3(-46.4, -37.5, 45),  // 36 right eye, outer corner
        SIMD3(-19.5, -35.6, 32),  // 39 right eye, inner corner
        SIMD3(19.5, -35.6, 32),  // 42 left eye, inner corner
        SIMD3(46.4, -37.5, 45),  // 45 left eye, outer corner
        SIMD3(-29.6, 33.1, 34),  // 48 right mouth corner
        SIMD3(29.6, 33.1, 34),  // 54 left mouth corner
    ]
}
