
/// The ratios the expression state machines work on, computed from the 68 iBUG landmarks.
///
/// Every function takes the points as a buffer of 68 `SIMD2<Float>` in pixels and returns a
/// finite value: a ratio whose denominator is shorter than `degenerateLength` pixels is 0.
public enum FaceGeometry {
    /// Lengths below this (pixels) make a ratio undefined; the ratio is then reported as 0.
    public static let degenerateLength: Double = 1e-6

    /// Eye aspect ratio (Soukupová & Čech 2016) of the six eye points starting at `first`:
    /// `(|p2 − p6| + |p3 − p5|) / (2 |p1 − p4|)`, p1 … p6 = points first … first + 5.
    /// Open eyes are about 0.25–0.35, closed ones below about 0.15.
    public static func eyeAspectRatio(_ p: UnsafeBufferPointer<SIMD2<Float>>, first: Int) -> Double {
        let v = distance(p[first + 1], p[first + 5]) + distance(p[first + 2], p[first + 4])
        return ratio(v, 2 * distance(p[first], p[first + 3]))
    }

    /// Mouth aspect ratio on the inner lips 60–67:
    /// `(|p61 − p67| + |p62 − p66| + |p63 − p65|) / (2 |p60 − p64|)`.
    /// About 0–0.1 with the lips together, 0.2–0.3 for parted lips or a toothy smile,
    /// 0.5 and more for a clearly open mouth (a yawn reaches about 1.5).
    public static func mouthAspectRatio(_ p: UnsafeBufferPointer<SIMD2<Float>>) -> Double {
        let v = distance(p[61], p[67]) + distance(p[62], p[66]) + distance(p[63], p[65])
        return ratio(v, 2 * distance(p[60], p[64]))
    }

    /// Centre of the six points of one eye (36 for the person's right eye, 42 for the left).
    public static func eyeCentre(_ p: UnsafeBufferPointer<SIMD2<Float>>, first: Int) -> SIMD2<Double> {
        var s = SIMD2<Double>(0, 0)
        for i in first..<(first + 6) { s += SIMD2<Double>(p[i]) }
        return s / 6
    }

    /// Smile score: mouth widening and lip-corner lift, both in units of the inter-ocular
    /// distance `d` (between the eye centres), so it does not depend on the face size or roll:
    ///
    ///     smile = 2.5 × ((|p48 − p54| / d − 0.85) + lift / d)
    ///
    /// `lift` is how far the mean of the lip corners 48 and 54 lies above the lip centre
    /// (mean of 51, 57, 62, 66), measured perpendicular to the eye line. The scale is set so that
    /// a neutral closed mouth is about 0 (Grace Hopper portrait: −0.04) and a broad toothy
    /// smile about 1 (the skimage astronaut portrait: 0.93); values are not clamped.
    ///
    /// `liftScale` multiplies the lift term: `Foreshortening.span` for a turned head, whose eye
    /// span shrinks while the lift (a height) does not.
    public static func smileScore(_ p: UnsafeBufferPointer<SIMD2<Float>>, liftScale: Double = 1) -> Double {
        let right = eyeCentre(p, first: 36), left = eyeCentre(p, first: 42)
        let eyeLine = left - right
        let d = (eyeLine * eyeLine).sum().squareRoot()
        guard d > degenerateLength else { return 0 }
        let ex = eyeLine / d
        let up = SIMD2<Double>(ex.y, -ex.x)  // perpendicular to the eye line, towards the forehead
        let corners = (SIMD2<Double>(p[48]) + SIMD2<Double>(p[54])) / 2
        let centre = (SIMD2<Double>(p[51]) + SIMD2<Double>(p[57]) + SIMD2<Double>(p[62]) + SIMD2<Double>(p[66])) / 4
        let lift = ((corners - centre) * up).sum()
        let width = distance(p[48], p[54])
        return 2.5 * ((width / d - 0.85) + liftScale * lift / d)
    }

    static func distance(_ a: SIMD2<Float>, _ b: SIMD2<Float>) -> Double {
        let d = SIMD2<Double>(a) - SIMD2<Double>(b)
        return (d * d).sum().squareRoot()
    }

    static func ratio(_ numerator: Double, _ denominator: Double) -> Double {
        denominator > degenerateLength ? numerator / denominator : 0
    }
}
