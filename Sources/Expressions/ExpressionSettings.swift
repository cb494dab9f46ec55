/// Settings of every state machine of an `ExpressionTracker`.
public struct ExpressionSettings: Sendable, Equatable {
    public var blink: BlinkSettings
    public var smile: StateSettings
    public var mouthOpen: StateSettings

    public init(
        blink: BlinkSettings = BlinkSettings(), smile: StateSettings = .smile,
        mouthOpen: StateSettings = .mouthOpen
    ) {
        self.blink = blink
        self.smile = smile
        self.mouthOpen = mouthOpen
    }
}
