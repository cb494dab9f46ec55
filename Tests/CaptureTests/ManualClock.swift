import Capture

/// A virtual clock: sleeping moves it forward at once, so capture tests take no real time and
/// every wait is exact.
final class ManualClock: CaptureClock {
    private(set) var time: Double

    init(start: Double = 1000) {
        time = start
    }

    func now() -> Double { time }

    func sleep(_ seconds: Double) {
        if seconds > 0 { time += seconds }
    }
}
