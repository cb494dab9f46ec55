import Foundation

/// How many times slower than real time the live-pipeline tests run: `FACEWATCH_TEST_SLOWDOWN`
/// (the Sanitizers stage sets it, since ThreadSanitizer makes frame processing 10–20× slower), 1
/// otherwise. The recording is played `slowdown` times slower and every wall-clock interval and
/// bound grows as much, so the same assertions hold at a pace the instrumented pipeline keeps.
enum TestPace {
    static let slowdown: Double = {
        guard let text = ProcessInfo.processInfo.environment["FACEWATCH_TEST_SLOWDOWN"],
              let value = Double(text), value >= 1 else { return 1 }
        return value
    }()

    /// The `PacedSource` speed of a recording played at `speed` in real time.
    static func speed(_ speed: Double) -> Double { speed / slowdown }

    /// A wall-clock interval or bound of `seconds` in real time.
    static func seconds(_ seconds: Double) -> Double { seconds * slowdown }
}
