/// The `pointer` section of config.json: how `facewatch pointer` turns the nose into a pointer.
public struct PointerConfiguration: Sendable, Equatable {
    /// What clicks: a blink held at least `longBlink` seconds, a wink, or nothing.
    public enum Click: String, Sendable, Equatable, CaseIterable {
        case longBlink = "long_blink"
        case wink
        case none
    }

    /// Pointer travel per unit of nose travel (both as fractions of their range).
    public var gain = 4.0
    /// Nose offsets from neutral smaller than this (fraction of the frame) do not move the pointer.
    public var deadZone = 0.01
    /// Seconds of nose positions averaged into the neutral point at the start.
    public var calibrate = 1.0
    /// One Euro filter: cutoff at rest (Hz) and how fast it opens with speed.
    public var minCutoff = 1.0
    public var beta = 0.5
    public var click = Click.longBlink
    /// Shortest blink, in seconds, that counts as a click with `click: long_blink`.
    public var longBlink = 0.3
    /// Mirror left and right (a webcam faces the user).
    public var mirror = true

    public init() {}
}
