/// The pipeline on one clip at one frame size (`Benchmark`'s frame sizes).
public struct ResolutionFigures: Sendable {
    public var width: Int
    public var height: Int
    /// Mean JPEG bytes per frame.
    public var jpegBytes: Int
    /// Per-stage times, one processing thread (as the pipeline benchmark).
    public var pipeline: PipelineFigures
    /// Frames per second of a replay as `facewatch replay` runs it (decoding on other threads).
    public var replayFPS: Double
    /// Frames decoded only around the faces, of all processed.
    public var partlyDecoded: Double
    /// The types of the events, in order, without `nose` and `frame` lines and the ends of smiles and open mouths.
    public var events: [String]

    /// "2 blink, 1 smile": the events by type, in order of first appearance (smiles and open
    /// mouths counted once, at their start; faces found and lost left out).
    public var eventCounts: String {
        var order: [String] = [], counts: [String: Int] = [:]
        for type in events {
            guard !["face_found", "face_lost"].contains(type) else { continue }
            if counts[type] == nil { order.append(type) }
            counts[type, default: 0] += 1
        }
        return order.isEmpty ? "none" : order.map { "\(counts[$0]!) \($0)" }.joined(separator: ", ")
    }
}
