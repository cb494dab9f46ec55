/// Parameters of ``CascadeDetector``, with the meaning (and defaults) of OpenCV's
/// `CascadeClassifier::detectMultiScale`.
public struct DetectorSettings: Sendable, Equatable {
    /// Ratio between successive pyramid scales; must be greater than 1. Larger is faster and
    /// coarser.
    public var scaleFactor: Double
    /// A group of raw windows is reported only when it has more than this many members;
    /// 0 reports every raw window ungrouped.
    public var minNeighbors: Int
    /// Smallest face side length searched, in pixels (0: the cascade's window size).
    public var minSize: Int
    /// Largest face side length searched, in pixels (0: no limit but the image size).
    public var maxSize: Int

    public init(scaleFactor: Double = 1.1, minNeighbors: Int = 3, minSize: Int = 0, maxSize: Int = 0) {
        self.scaleFactor = scaleFactor
        self.minNeighbors = minNeighbors
        self.minSize = minSize
        self.maxSize = maxSize
    }

    /// Why the settings are unusable, or nil when they are fine.
    public var problem: String? {
        if !(scaleFactor > 1 && scaleFactor < 100) { return "scaleFactor must be greater than 1 (got \(scaleFactor))" }
        if minNeighbors < 0 { return "minNeighbors must not be negative (got \(minNeighbors))" }
        if minSize < 0 || maxSize < 0 { return "minSize and maxSize must not be negative" }
        if maxSize > 0 && maxSize < minSize { return "maxSize (\(maxSize)) is smaller than minSize (\(minSize))" }
        return nil
    }
}
