/// Ends a frame source early once `shouldStop` says so (a signal during a replay, a consumer
/// that went away).
public struct StoppableSource<Base: FrameSource>: FrameSource {
    public var base: Base
    public let shouldStop: () -> Bool

    public init(base: Base, shouldStop: @escaping () -> Bool) {
        self.base = base
        self.shouldStop = shouldStop
    }

    public mutating func nextFrame() throws -> Frame? {
        shouldStop() ? nil : try base.nextFrame()
    }
}
