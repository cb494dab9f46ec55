import ArgumentParser
import Recordings

/// The `--speed` of a command that plays a recording on its clock (`replay`, `serve`,
/// `loopback`): how many times the recording's rate.
enum PlaybackSpeed {
    /// Checks `speed`: finite and at least `Recording.slowestSpeed`, or 0 when `zero` says what 0
    /// means.
    static func validate(_ speed: Double, zero: String? = nil) throws {
        if speed == 0, zero != nil { return }
        guard speed >= Recording.slowestSpeed, speed.isFinite else {
            let low = "a number from \(Recording.slowestSpeed) (a hundredth of the recording's rate) up"
            throw ValidationError("--speed must be \(zero.map { "0 (\($0)) or " } ?? "")\(low); got \(speed)")
        }
    }
}
