import Capture
import Foundation
import Recordings
import XCTest

final class FaultTests: SceneTestCase {
    func testEAGAINAndEINTRAreRetried() throws {
        let device = emulated(.init(faults: [.spuriousAgain(count: 3), .interrupted(count: 4)]))
        let camera = try camera(on: device)
        for number in 0..<3 {
            XCTAssertEqual(try jpeg(camera.nextFrame()), try recording.jpeg(number))
        }
        XCTAssertEqual(device.faultsInjected, 7, "every injected EAGAIN and EINTR was met and retried")
        XCTAssertEqual(camera.timeouts, 0)
        XCTAssertEqual(camera.droppedFrames, 0)
    }

    /// Frames stop at 0.21 s for 2 s; with a 0.5 s poll timeout each wait ends in a FrameError after
    /// exactly 0.5 s (no hang), and frames resume afterwards.
    func testPollTimeoutIsAFrameErrorAndDoesNotHang() throws {
        let camera = try camera(on: emulated(.init(faults: [.stall(at: 0.21, seconds: 2)])),
                                CameraSettings(device: "emulated-test", pollTimeout: 0.5))
        var lastT = -1.0
        var errors: [FrameError] = []
        var resumed: Frame?
        while resumed == nil {
            let before = clock.now()
            do {
                let next = try camera.nextFrame()
                let frame = try XCTUnwrap(next)
                if !errors.isEmpty { resumed = frame }
                XCTAssertGreaterThanOrEqual(frame.t, lastT)
                lastT = frame.t
            } catch let error as FrameError {
                XCTAssertEqual(clock.now() - before, 0.5, accuracy: 1e-9)
                XCTAssertTrue(error.problem.hasPrefix("emulated-test: no frame within 0.5 s"), error.problem)
                XCTAssertGreaterThan(error.t, lastT)
                lastT = error.t
                errors.append(error)
            }
            XCTAssertLessThan(errors.count, 10, "the stall ends after 2 s")
            if errors.count >= 10 { break }
        }
        XCTAssertEqual(errors.count, 4)
        XCTAssertEqual(camera.timeouts, 4)
        let frame = try XCTUnwrap(resumed)
        XCTAssertGreaterThanOrEqual(frame.t, 2.2)
        XCTAssertEqual(errors.first?.index, frame.index, "a timeout does not use up a frame number")
    }

    func testShortAndTruncatedJPEGFramesAreFrameErrors() throws {
        let cut = recording.frames[4].length - 300
        let camera = try camera(on: emulated(.init(faults: [.truncated(frame: 2, keep: 60), .truncated(frame: 4, keep: cut)])))
        var results: [String] = []
        for _ in 0..<6 {
            do {
                let next = try camera.nextFrame()
                let frame = try XCTUnwrap(next)
                let scene = try XCTUnwrap(sceneFrame(at: frame.t))
                XCTAssertEqual(try jpeg(frame), try recording.jpeg(scene))
                results.append("\(frame.index): scene \(scene)")
            } catch let error as FrameError {
                results.append("\(error.index): \(error.problem)")
            }
        }
        XCTAssertEqual(results, [
            "0: scene 0", "1: scene 1", "2: short frame: only 60 bytes", "3: scene 3",
            "4: truncated frame: no FFD9 end marker in its last bytes (\(cut) bytes)", "5: scene 5",
        ])
        XCTAssertEqual(camera.badFrames, 2)
    }

    func testShortRawFrameIsAFrameError() throws {
        let camera = try camera(on: emulated(.init(formats: [.yuyv], faults: [.truncated(frame: 1, keep: 1280 * 200)])))
        XCTAssertNoThrow(try camera.nextFrame())
        XCTAssertThrowsError(try camera.nextFrame()) { error in
            XCTAssertEqual((error as? FrameError)?.problem, "short frame: 256000 of 614400 bytes")
        }
        XCTAssertNoThrow(try camera.nextFrame())
    }

    /// Unplugged at 0.31 s and back 2 s later: the camera reports `disconnected`, reopening fails
    /// while the device is away, and the reconnector brings it back; frames carry on with later
    /// times and the next frame numbers.
    func testUnplugIsDisconnectedAndReopenWorksAfterReplug() throws {
        let device = emulated(.init(faults: [.unplug(at: 0.31, back: 2)]))
        let start = clock.now()
        let camera = try camera(on: device)
        var last: Frame?
        do {
            while true { last = try camera.nextFrame() }
        } catch CameraError.disconnected(let name) {
            XCTAssertEqual(name, "emulated-test")
        }
        let before = try XCTUnwrap(last)
        XCTAssertLessThan(before.t, 0.31)
        XCTAssertThrowsError(try camera.nextFrame()) { XCTAssertEqual($0 as? CameraError, .notOpen(device: "emulated-test")) }
        XCTAssertThrowsError(try camera.reopen()) { error in
            XCTAssertTrue("\(error)".hasSuffix("open: No such file or directory"), "\(error)")
        }

        var waits: [Double] = []
        let attempts = try Reconnector(initialDelay: 0.25, maxDelay: 1, deadline: 10, clock: clock)
            .run(device: camera.settings.device, attempt: camera.reopen) { _, delay in waits.append(delay) }
        XCTAssertEqual(waits, [0.25, 0.5, 1, 1])
        XCTAssertEqual(attempts, 5)
        XCTAssertGreaterThanOrEqual(clock.now() - start, 2.31)

        let after = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(after.index, before.index + 1)
        XCTAssertGreaterThanOrEqual(after.t, 2.31)
        XCTAssertEqual(camera.format.pixelFormat, .mjpeg)
    }

    func testReconnectorGivesUpAtTheDeadline() throws {
        let device = emulated(.init(faults: [.unplug(at: 0.1, back: nil)]))
        let camera = try camera(on: device)
        clock.sleep(0.2)
        XCTAssertThrowsError(try camera.nextFrame()) { XCTAssertEqual($0 as? CameraError, .disconnected(device: "emulated-test")) }
        let start = clock.now()
        var failures = 0
        XCTAssertThrowsError(try Reconnector(initialDelay: 0.5, maxDelay: 2, deadline: 5, clock: clock)
            .run(device: "emulated-test", attempt: camera.reopen) { _, _ in failures += 1 }) { error in
            guard case .gaveUp(let name, let seconds, let lastError) = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "emulated-test")
            XCTAssertEqual(seconds, 5, accuracy: 1e-9, "waits 0.5 + 1 + 2, then 1.5 (not 2) to try once more at 5 s")
            XCTAssertTrue(lastError.hasSuffix("open: No such file or directory"), lastError)
        }
        XCTAssertEqual(failures, 4)
        XCTAssertEqual(clock.now() - start, 5, accuracy: 1e-9)
    }

    /// `--reconnect-for 3` with the default backoff (0.25, 0.5, 1, 2 s) keeps trying for the
    /// whole 3 s: the last wait is cut to 1.25 s so that the last attempt is at 3 s.
    func testReconnectorKeepsTryingUntilTheDeadline() throws {
        var attemptTimes: [Double] = []
        let start = clock.now()
        XCTAssertThrowsError(try Reconnector(deadline: 3, clock: clock).run(device: "gone", attempt: {
            attemptTimes.append(clock.now() - start)
            throw CameraError.disconnected(device: "gone")
        })) { error in
            guard case .gaveUp(_, let seconds, _) = error as? CameraError else { return XCTFail("\(error)") }
            XCTAssertGreaterThanOrEqual(seconds, 3)
        }
        XCTAssertEqual(attemptTimes, [0, 0.25, 0.75, 1.75, 3])
    }
}
