/// What the pointer does: move to a position (0…1 of the screen) or click a button.
public enum PointerAction: Sendable, Equatable {
    public enum Button: String, Sendable {
        case left
        case right
    }

    case move(x: Double, y: Double)
    case click(Button)
}

/// Where pointer actions go: the uinput device, or standard output with `--dry-run`.
public protocol PointerOutput: AnyObject {
    /// Performs one action, computed from the frame at stream time `t`.
    func perform(_ action: PointerAction, t: Double, frame: Int) throws
}
