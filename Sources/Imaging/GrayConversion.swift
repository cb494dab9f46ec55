/// How a color JPEG becomes gray.
public enum GrayConversion: String, Sendable, CaseIterable {
    /// The JPEG's own luma plane (BT.601 Y). Fastest: chroma is never transformed or upsampled.
    case luma
    /// (R + G + B) / 3 with integer division after full RGB decoding: what dlib's
    /// `load_image` + `assign_image` produce, for exact parity with dlib reference numbers.
    case rgbMean = "rgb-mean"
}
