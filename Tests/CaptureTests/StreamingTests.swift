import Capture
import Foundation
import Recordings
import XCTest

final class StreamingTests: SceneTestCase {
    /// A consumer that keeps up gets every frame, in order, with the recording's times
    /// (relative to its first frame), looping on after the last.
    func testFramesComeInOrderWithTheRecordingsTimes() throws {
        let camera = try camera(on: emulated())
        let cycle = Self.times.last! - Self.times[0] + 1.0 / 30
        for number in 0..<(Self.frameCount + 5) {
            let frame = try XCTUnwrap(camera.nextFrame())
            let scene = number % Self.frameCount
            XCTAssertEqual(frame.index, number)
            XCTAssertEqual(frame.t, Double(number / Self.frameCount) * cycle + Self.times[scene] - Self.times[0], accuracy: 1e-6)
            XCTAssertEqual(try jpeg(frame), try recording.jpeg(scene), "frame \(number)")
        }
        XCTAssertEqual(camera.droppedFrames, 0)
        XCTAssertEqual(camera.badFrames, 0)
        XCTAssertEqual(camera.timeouts, 0)
    }

    func testPlaybackSpeedScalesTheTimes() throws {
        let camera = try camera(on: emulated(.init(speed: 2)))
        for number in 0..<6 {
            XCTAssertEqual(try XCTUnwrap(camera.nextFrame()).t, (Self.times[number] - Self.times[0]) / 2, accuracy: 1e-6)
        }
    }

    /// A consumer that takes 0.11 s per frame gets the newest frame every time, never a backlog,
    /// and every frame it missed is counted.
    func testSlowConsumerGetsTheNewestFrameAndDropsAreCounted() throws {
        let start = clock.now()
        let camera = try camera(on: emulated(.init(loop: false)))
        var delivered: [Int] = []
        for _ in 0..<7 {
            let frame = try XCTUnwrap(camera.nextFrame())
            let scene = try XCTUnwrap(sceneFrame(at: frame.t), "t \(frame.t) is not a scene frame's time")
            let newest = Self.times.lastIndex { start + $0 - Self.times[0] <= clock.now() + 1e-9 }
            XCTAssertEqual(scene, newest, "not the newest frame at \(clock.now() - start) s")
            XCTAssertEqual(try jpeg(frame), try recording.jpeg(scene))
            delivered.append(scene)
            clock.sleep(0.11)  // the consumer's work
        }
        XCTAssertEqual(delivered.count, Set(delivered).count)
        XCTAssertGreaterThan(camera.droppedFrames, 10)
        // Every scene frame up to the last one delivered was either delivered or counted as dropped.
        XCTAssertEqual(camera.droppedFrames + delivered.count, delivered.last! + 1)
    }

    /// Slower still, the driver runs out of queued buffers and drops frames itself (sequence
    /// gaps): with two buffers it fills both with the first two frames after they were queued
    /// and drops the rest; the newer of the two wins, and the driver's drops are counted too.
    func testDriverDropsWhenNoBufferIsQueuedAreCounted() throws {
        let start = clock.now()
        let camera = try camera(on: emulated(.init(loop: false)), CameraSettings(device: "emulated-test", buffers: 2))
        var delivered: [Int] = []
        var requeued = clock.now()
        for _ in 0..<4 {
            let frame = try XCTUnwrap(camera.nextFrame())
            let scene = try XCTUnwrap(sceneFrame(at: frame.t))
            if !delivered.isEmpty {
                let firstAfterQueueing = try XCTUnwrap(Self.times.firstIndex { start + $0 - Self.times[0] > requeued })
                XCTAssertEqual(scene, firstAfterQueueing + 1)
            }
            requeued = clock.now()
            delivered.append(scene)
            XCTAssertEqual(camera.droppedFrames + delivered.count, scene + 1)
            clock.sleep(0.19)
        }
        XCTAssertEqual(delivered.count, Set(delivered).count)
    }

    /// libv4l2 prints "error dequeuing buf: Resource temporarily unavailable" for every
    /// VIDIOC_DQBUF that finds nothing: capture must never dequeue an empty queue, whether the
    /// consumer keeps up or falls behind.
    func testCaptureNeverDequeuesAnEmptyQueue() throws {
        let device = emulated()
        let camera = try camera(on: device)
        for number in 0..<40 {
            _ = try XCTUnwrap(camera.nextFrame())
            if number % 10 == 9 { clock.sleep(0.2) }  // fall behind now and then: several buffers ready
        }
        XCTAssertGreaterThan(camera.droppedFrames, 0, "the slow spells did leave several buffers to drain")
        XCTAssertEqual(device.emptyDequeues, 0)
    }

    /// What the driver captured between STREAMON and the first read (the caller was still
    /// setting up) is not a drop: drops are counted from the first frame delivered, here none
    /// afterwards since the consumer keeps up.
    func testFramesCapturedBeforeTheFirstReadAreNotCountedAsDropped() throws {
        let camera = try camera(on: emulated(), CameraSettings(device: "emulated-test", buffers: 4))
        clock.sleep(0.5)  // 15 frames: 4 fill the buffers, the driver drops 11 (a sequence gap)
        let first = try XCTUnwrap(camera.nextFrame())
        XCTAssertEqual(first.t, 0, "times count from the first frame delivered")
        for _ in 0..<20 { _ = try XCTUnwrap(camera.nextFrame()) }
        XCTAssertEqual(camera.droppedFrames, 0)
        clock.sleep(0.2)  // now the consumer falls behind: these are drops
        _ = try XCTUnwrap(camera.nextFrame())
        XCTAssertGreaterThanOrEqual(camera.droppedFrames, 3, "4 to 6 frames came; one was delivered")
    }
}
