import CUInput
import Foundation

/// A virtual absolute pointer through Linux uinput: moves go to ABS_X/ABS_Y, clicks press and
/// release a button.
public final class UInputPointer: PointerOutput {
    /// /dev/uinput is missing or not writable; the message says how to grant access.
    public struct AccessError: Error, CustomStringConvertible {
        public let description: String
    }

    private let fd: Int32

    public init(path: String = "/dev/uinput") throws {
        var fd: Int32 = -1
        let rc = fw_uinput_create(path, "Facewatch nose pointer", &fd)
        guard rc == 0 else {
            let reason = String(cString: strerror(rc))
            throw AccessError(description: """
                \(path): \(reason). facewatch pointer needs write access to uinput: load the module \
                (sudo modprobe uinput) and install the udev rule that gives the input group access \
                (sudo cp Scripts/99-facewatch-uinput.rules /etc/udev/rules.d/ && sudo udevadm control --reload \
                && sudo udevadm trigger /dev/uinput), add yourself to that group (sudo usermod -aG input $USER, \
                then log in again), or use --dry-run to print the moves
                """)
        }
        self.fd = fd
    }

    public func perform(_ action: PointerAction, t: Double, frame: Int) throws {
        let max = Double(FW_UINPUT_MAX)
        let rc: Int32
        switch action {
        case .move(let x, let y): rc = fw_uinput_move(fd, Int32((x * max).rounded()), Int32((y * max).rounded()))
        case .click(let button): rc = fw_uinput_click(fd, button == .left ? 0 : 1)
        }
        if rc != 0 && rc != EAGAIN {
            throw AccessError(description: "uinput: cannot send the pointer event (\(String(cString: strerror(rc))))")
        }
    }

    deinit {
        fw_uinput_destroy(fd)
    }
}
