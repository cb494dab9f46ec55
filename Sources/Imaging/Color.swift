/// An RGB color for overlays.
public struct Color: Sendable, Equatable {
    public var r: UInt8
    public var g: UInt8
    public var b: UInt8

    public init(r: UInt8, g: UInt8, b: UInt8) {
        self.r = r
        self.g = g
        self.b = b
    }

    public static let green = Color(r: 0, g: 230, b: 0)
    public static let red = Color(r: 240, g: 30, b: 30)
    public static let yellow = Color(r: 250, g: 220, b: 0)
    public static let cyan = Color(r: 0, g: 220, b: 240)
    public static let white = Color(r: 255, g: 255, b: 255)
}
