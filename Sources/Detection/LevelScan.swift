/// The part of one pyramid level to scan.
struct LevelScan {
    /// Windows start at x in `0..<columns`, y in `0..<rows`, every `step` pixels.
    var columns: Int
    var rows: Int
    var step: Int
    var stride: Int
    /// Variance window (the detection window inset by one pixel) as corner offsets.
    var normRect: SumCorners
    var normArea: Double
}
