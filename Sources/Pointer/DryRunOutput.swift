import Events
import Foundation

/// `--dry-run`: writes each pointer action as a JSON line instead of moving anything:
/// `{"type":"pointer_move","t":1.234,"frame":37,"x":0.4821,"y":0.5012}` (0…1 of the screen) or
/// `{"type":"pointer_click","t":…,"frame":…,"button":"left"}`.
public final class DryRunOutput: PointerOutput {
    private let handle: FileHandle

    public init(handle: FileHandle = .standardOutput) {
        self.handle = handle
    }

    public func perform(_ action: PointerAction, t: Double, frame: Int) throws {
        var out: [UInt8] = []
        switch action {
        case .move:
            out += Array(#"{"type":"pointer_move","t":"#.utf8)
        case .click:
            out += Array(#"{"type":"pointer_click","t":"#.utf8)
        }
        JSONNumber.append(t, decimals: 3, to: &out)
        out += Array(#","frame":"#.utf8)
        JSONNumber.append(frame, to: &out)
        switch action {
        case .move(let x, let y):
            out += Array(#","x":"#.utf8)
            JSONNumber.append(x, decimals: 4, to: &out)
            out += Array(#","y":"#.utf8)
            JSONNumber.append(y, decimals: 4, to: &out)
        case .click(let button):
            out += Array(#","button":"#.utf8)
            JSONString.append(button.rawValue, to: &out)
        }
        out += Array("}\n".utf8)
        try handle.write(contentsOf: out)
    }
}
