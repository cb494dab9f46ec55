import Foundation
import HelperThreads
import XCTest

/// The helper runs its job once per `begin()`, on its own thread, with the owner's writes seen
/// before the job and the job's writes seen after `wait()`; `stop()` ends the thread.
final class HelperThreadTests: XCTestCase {
    /// `@unchecked Sendable`: the state the test checks is ordered by the helper's semaphores,
    /// as an owner's is (what these tests are about).
    private final class Owner: @unchecked Sendable {
        var input = 0
        var output = 0
        var runs = 0
        var ranOnCaller = false
        let caller = Thread.current
        var helper: HelperThread!

        init() {
            helper = HelperThread(name: "facewatch.test") { [unowned self] in
                self.output = self.input * 2
                self.runs += 1
                if Thread.current == self.caller { self.ranOnCaller = true }
            }
        }
    }

    func testEachBeginRunsTheJobOnceOnTheHelperThread() {
        let owner = Owner()
        var sum = 0
        for n in 1...2000 {
            owner.input = n
            owner.helper.begin()
            sum += n  // the caller's share, meanwhile
            owner.helper.wait()
            XCTAssertEqual(owner.output, 2 * n)
        }
        XCTAssertEqual(owner.runs, 2000)
        XCTAssertFalse(owner.ranOnCaller)
        XCTAssertEqual(sum, 2000 * 2001 / 2)
        owner.helper.stop()
    }

    func testStopEndsTheThread() throws {
        /// This process's threads named `name` (the kernel's copy of the thread name).
        func threads(named name: String) throws -> Int {
            try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task").filter { task in
                let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
                return comm?.trimmingCharacters(in: .newlines) == name
            }.count
        }
        let helpers = (0..<8).map { _ in HelperThread(name: "facewatch.stop") {} }
        for helper in helpers {
            helper.begin()
            helper.wait()
        }
        XCTAssertEqual(try threads(named: "facewatch.stop"), 8)
        for helper in helpers { helper.stop() }
        // A stopped thread leaves `serve` at once; give the kernel a moment to reap it.
        let deadline = Date().addingTimeInterval(5)
        while try threads(named: "facewatch.stop") > 0, Date() < deadline { usleep(10_000) }
        XCTAssertEqual(try threads(named: "facewatch.stop"), 0)
    }
}
