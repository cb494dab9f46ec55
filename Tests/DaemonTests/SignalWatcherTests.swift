import Daemon
import Foundation
import XCTest

/// Signals become a flag and a call instead of their default action (which for SIGUSR1 would end the test run).
final class SignalWatcherTests: XCTestCase {
    func testAWatchedSignalIsCaughtAndHandled() {
        let handled = expectation(description: "the handler ran")
        let watcher = SignalWatcher(signals: [SIGUSR1]) { number in
            XCTAssertEqual(number, SIGUSR1)
            handled.fulfill()
        }
        XCTAssertFalse(watcher.received)
        kill(getpid(), SIGUSR1)
        wait(for: [handled], timeout: 5)
        XCTAssertTrue(watcher.received)
    }
}
