import ArgumentParser

/// The `--speed` of a command that plays a recording on its clock (`replay`, `serve`,
/// `loopback`): how many times the recording's rate.
enum PlaybackSpeed {
    /// The slowest: a hundredth of real time. Below it a frame's wait (its time over the speed)
    /// leaves the range of the clocks' arithmetic, and playback would stop pacing.
    static let slowest = 0.01

    /// Checks `speed`: finite and at least ``slowest``, or 0 when `zero` says what 0 means.
    static func validate(_ speed: Double, zero: String? = nil) throws {
        if speed == 0, zero != nil { return }
        guard speed >= slowest, speed.isFinite else {
            let low = "a number from \(slowest) (a hundredth of the recording's rate) up"
            throw ValidationError("--speed must be \(zero.map { "0 (\($0)) or " } ?? "")\(low); got \(speed)")
        }
    }
}
