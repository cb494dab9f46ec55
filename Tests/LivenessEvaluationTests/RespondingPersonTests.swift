import Config
import Foundation
import Landmarks
import Liveness
import LivenessEvaluation
import Pipeline
import Recordings
import XCTest

/// Genuine presentations: bundled recordings played as their person answering the cues.
final class RespondingPersonTests: XCTestCase {
    private func recording(_ name: String) throws -> Recording {
        try Recording(directory: CheckOnRecordingsTests.recordings.appendingPathComponent(name).path)
    }

    private func check(_ name: String, _ challenge: String, seed: UInt64, blinksPerMinute: Double = 0,
                       frames: (Frame) throws -> Void = { _ in }) throws -> CheckVerdict {
        var person = try RespondingPerson(recording: recording(name), seed: seed, blinksPerMinute: blinksPerMinute)
        let processor = try FrameProcessor(configuration: Configuration(), predictor: CheckOnRecordingsTests.predictor.get())
        return try CheckRun.verdict(try Challenge(parsing: challenge), seed: seed, person: &person, processor: processor, frames: frames)
    }

    func testPeopleAnsweringTheCuesPass() throws {
        for name in ["real/feat-single-face", "real/clm-cap12", "hopper-blinks", "blinks-slow-move"] {
            for seed in 1...5 as ClosedRange<UInt64> {
                let verdict = try check(name, "blink", seed: seed)
                XCTAssertTrue(verdict.passed, "\(name) seed \(seed): \(verdict)")
                for latency in verdict.steps[0].latencies {
                    XCTAssertTrue((0.15...0.9).contains(latency), "\(name) seed \(seed): \(verdict.steps[0].latencies)")
                }
            }
        }
        // pexels-langer waits for its blinks smiling (the smile lasts ten seconds): with seed 1 the
        // detector reads the narrowing eyes just before a blink as blinks of their own, before the
        // window opens (early). At least 4 of 5 seeds pass.
        let smiling = try (1...5 as ClosedRange<UInt64>).filter { try check("real/pexels-langer", "blink", seed: $0).passed }
        XCTAssertGreaterThanOrEqual(smiling.count, 4, "\(smiling)")
        for seed in 1...5 as ClosedRange<UInt64> {
            XCTAssertTrue(try check("head-turn-neutral", "turn_left", seed: seed).passed, "seed \(seed)")
        }
        // Two blinks per cue: the footage's own pairs of blinks, cut in (4 of 5 seeds measured).
        let doubles = try (1...5 as ClosedRange<UInt64>).filter { try check("double-blinks", "blink:2", seed: $0).passed }
        XCTAssertGreaterThanOrEqual(doubles.count, 4, "\(doubles)")
    }

    func testItShowsTheRecordingsOwnFramesOnACameraClock() throws {
        let source = try recording("hopper-blinks")
        let originals = Set(try (0..<source.frames.count).map { try source.jpeg($0) })
        var shown: [Frame] = []
        _ = try check("hopper-blinks", "blink", seed: 3) { shown.append($0) }
        XCTAssertGreaterThan(shown.count, 100)
        for (k, frame) in shown.enumerated() {
            XCTAssertEqual(frame.index, k)
            // A camera's clock, in whole microseconds as a recording keeps it.
            XCTAssertEqual(frame.t, Double(k) / source.info.fps, accuracy: 5e-7)
            XCTAssertEqual(frame.t * 1e6, (frame.t * 1e6).rounded(), accuracy: 1e-6)
            guard case .jpeg(let data) = frame.payload else { return XCTFail("frame \(k) is not a JPEG") }
            XCTAssertTrue(originals.contains(data), "frame \(k) is one of the recording's")
        }
    }

    func testASavedPresentationReplaysToTheSameVerdict() throws {
        // A 25 fps close-up: a frame time k / 25 is not a whole number of microseconds, the
        // precision a recording keeps, and checks of two blinks on it turned on a frame's time
        // being a hair before or after a limit when the person's clock was not on whole
        // microseconds (10 of these 20 replays differed).
        let name = "real/clm-cap12"
        let source = try recording(name)
        let predictor = try CheckOnRecordingsTests.predictor.get()
        var passed = 0
        for seed in 1...20 as ClosedRange<UInt64> {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("genuine-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let writer = try RecordingWriter(directory: folder.path, info: RecordingInfo(
                width: source.info.width, height: source.info.height, fps: source.info.fps, source: "test"))
            var times: [Double] = []
            let live = try check(name, "blink:2", seed: seed) { frame in
                times.append(frame.t)
                if case .jpeg(let data) = frame.payload { try writer.append(jpeg: data, t: frame.t) }
            }
            try writer.finish()
            let saved = try Recording(directory: folder.path)
            XCTAssertTrue(saved.frames.map(\.t) == times, "seed \(seed): the times read back are not the times shown")
            var replay = RecordingSource(recording: saved)
            let frames = try CheckRun.process(&replay, with: FrameProcessor(configuration: Configuration(), predictor: predictor))
            let replayed = CheckRun.verdict(try Challenge(parsing: "blink:2"), seed: seed, on: frames)
            XCTAssertEqual(replayed.passed, live.passed, "seed \(seed): \(replayed) against \(live)")
            XCTAssertEqual(replayed.reason, live.reason, "seed \(seed)")
            XCTAssertEqual(replayed.frame, live.frame, "seed \(seed)")
            XCTAssertEqual(replayed.steps.map(\.latencies), live.steps.map(\.latencies), "seed \(seed)")
            if live.passed { passed += 1 }
            // The cues come from the seed: another seed cues at other times, and the replay fails.
            if seed == 1 { XCTAssertFalse(CheckRun.verdict(try Challenge(parsing: "blink:2"), seed: 2, on: frames).passed) }
        }
        XCTAssertGreaterThanOrEqual(passed, 15, "most presentations pass, so the comparison covers both verdicts")
    }

    /// A person who blinks on their own blinks while holding still too: the check counts those
    /// blinks as early and weighs them against the answers. Without them (the default), no blink
    /// comes before its cue.
    func testSpontaneousBlinksComeDuringTheHolds() throws {
        let level = CheckSettings().chanceLevel
        var early: [Int] = [], passedWithMany = 0
        for seed in 1...5 as ClosedRange<UInt64> {
            XCTAssertEqual(try check("hopper-blinks", "blink", seed: seed).steps[0].early, 0, "seed \(seed)")
            let blinking = try check("hopper-blinks", "blink", seed: seed, blinksPerMinute: 30)
            let step = blinking.steps[0]
            early.append(step.early)
            if blinking.passed {
                XCTAssertLessThanOrEqual(try XCTUnwrap(step.chance), level, "seed \(seed)")
                if step.early > 2 { passedWithMany += 1 }
            } else {
                XCTAssertEqual(blinking.reason, .earlyResponse, "seed \(seed): \(blinking)")
            }
        }
        // 30 a minute over about 10 s of holds: about 5 blinks of one's own in each check, and
        // checks that pass with more than the two a fixed limit used to allow (measured: 4 of 5
        // checks pass, 3 of them with 4 or 5 early blinks).
        XCTAssertGreaterThanOrEqual(early.reduce(0, +), 10, "\(early)")
        XCTAssertGreaterThanOrEqual(passedWithMany, 2, "\(early)")
    }

    /// A person waiting for a smile cue who blinks on their own blinks without smiling or
    /// talking: the blinks of `feat-single-face` that come in its smiles or speech are not the
    /// ones cut in. Shown with the footage around them, 3 of these 5 checks failed, early.
    func testBlinksOfOnesOwnBringNoSmileWithThem() throws {
        for seed in 1...5 as ClosedRange<UInt64> {
            let verdict = try check("real/feat-single-face", "smile", seed: seed, blinksPerMinute: 30)
            XCTAssertTrue(verdict.passed, "seed \(seed): \(verdict)")
            XCTAssertEqual(verdict.steps[0].early, 0, "seed \(seed)")
        }
    }

    func testItAnswersOnlyWhatTheTruthMarks() throws {
        let person = try RespondingPerson(recording: recording("hopper-blinks"), seed: 1)
        XCTAssertTrue(person.canRespond(to: .blink(count: 2)))
        XCTAssertFalse(person.canRespond(to: .nod))
        XCTAssertFalse(person.canRespond(to: .smile))
        let turning = try RespondingPerson(recording: recording("head-turn-neutral"), seed: 1)
        XCTAssertTrue(turning.canRespond(to: .turnLeft))
        XCTAssertFalse(turning.canRespond(to: .blink(count: 1)))
    }

    /// `blinks-slow-move` has no two blinks within 0.6 s of each other, so each answer to
    /// `blink:2` shows one blink twice, the second cut in where the first ends. Two blinks of
    /// different moments (the closest pair of the recording; later the next two) made jumps (a
    /// face sliding across the frame) that left the landmarks off for the blink after the cut, or
    /// a second track on the face: up to 4 of these 5 seeds failed.
    func testBlinkingTwiceFromOneBlinkShownTwicePasses() throws {
        for seed in 1...5 as ClosedRange<UInt64> {
            let verdict = try check("blinks-slow-move", "blink:2", seed: seed)
            XCTAssertTrue(verdict.passed, "seed \(seed): \(verdict)")
            for latency in verdict.steps[0].latencies {
                XCTAssertTrue((0.15...1.5).contains(latency), "seed \(seed): \(verdict.steps[0].latencies)")
            }
        }
    }

    /// An event with too little quiet footage before it (a blink straight after the eyes were
    /// closed for a while) cannot be shown by a person who was holding still, so it never answers
    /// a cue. Quiet means clear of what the person holds back for the step: a blink in the middle
    /// of a long smile still answers a blink cue (people smile while they wait).
    func testEventsWithoutQuietFootageBeforeThemAreNotResponses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("responder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: CheckOnRecordingsTests.recordings.appendingPathComponent("hopper-blinks"), to: folder)
        func person(_ events: [(String, Double, Double)], unsure: [(String, Double, Double)] = []) throws -> RespondingPerson {
            let entries = { (list: [(String, Double, Double)]) in list.map { ["type": $0.0, "start": $0.1, "end": $0.2] as [String: Any] } }
            let truth = ["faces": 1, "events": entries(events), "unsure": entries(unsure)] as [String: Any]
            try JSONSerialization.data(withJSONObject: truth).write(to: folder.appendingPathComponent("truth.json"))
            return try RespondingPerson(recording: Recording(directory: folder.path), seed: 1)
        }
        // Closed eyes up to just before the blink: nothing quiet before it.
        XCTAssertFalse(try person([("eyes_closed", 0.5, 1.6), ("blink", 1.666667, 1.8)]).canRespond(to: .blink(count: 1)))
        // Two frames of open eyes between them are not a person at rest either.
        XCTAssertFalse(try person([("eyes_closed", 0.5, 2.0), ("blink", 2.366667, 2.533333)]).canRespond(to: .blink(count: 1)))
        XCTAssertTrue(try person([("eyes_closed", 0.5, 1.0), ("blink", 2.366667, 2.533333)]).canRespond(to: .blink(count: 1)))
        // A smile going on does not keep a person from blinking on cue.
        let smiling = try person([("smile", 0.5, 3.0), ("blink", 1.666667, 1.8)])
        XCTAssertTrue(smiling.canRespond(to: .blink(count: 1)))
        XCTAssertTrue(smiling.canRespond(to: .smile))
        // A smile of several seconds is one smile, not footage of a person smiling on cue.
        XCTAssertFalse(try person([("smile", 0.5, 4.6)]).canRespond(to: .smile))
        // Speech up to a smile: the mouth was not at rest, so it is no smile made on cue; a
        // person waiting to blink may talk.
        XCTAssertFalse(try person([("talking", 0.3, 1.5), ("smile", 1.6, 2.5)]).canRespond(to: .smile))
        XCTAssertTrue(try person([("talking", 0.3, 0.6), ("smile", 1.6, 2.5)]).canRespond(to: .smile))
        XCTAssertTrue(try person([("talking", 0.3, 1.5), ("blink", 1.666667, 1.8)]).canRespond(to: .blink(count: 1)))
        // Speech marked only as unsure open mouths (lips apart, clm-cap13) is held back the same.
        let lipsApart = try person([("smile", 1.6, 2.5), ("blink", 1.666667, 1.8)], unsure: [("mouth_open", 0.3, 1.5)])
        XCTAssertFalse(lipsApart.canRespond(to: .smile))
        XCTAssertTrue(lipsApart.canRespond(to: .blink(count: 1)))
        XCTAssertTrue(try person([("smile", 1.6, 2.5)], unsure: [("mouth_open", 0.3, 0.6)]).canRespond(to: .smile))
        // An open mouth that closes 0.5 s before the smile leaves 0.13 s of rest between the
        // margins: four frames, no rest; 0.3 s is.
        XCTAssertFalse(try person([("mouth_open", 0.5, 1.3), ("smile", 1.833333, 2.5)]).canRespond(to: .smile))
        XCTAssertTrue(try person([("mouth_open", 0.5, 1.3), ("smile", 2.0, 2.8)]).canRespond(to: .smile))
        // A smile the recording ends in (it is 4 s long) has no end to show.
        XCTAssertFalse(try person([("smile", 3.0, 4.0)]).canRespond(to: .smile))
        XCTAssertTrue(try person([("smile", 3.0, 3.9)]).canRespond(to: .smile))
    }

    /// A response whose footage reaches the recording's last frame before the face has settled
    /// ends there: the person goes back to waiting, instead of staying on that frame until the
    /// next cue (a smile frozen there never became neutral again, and every later cue timed out).
    func testTheLastFrameOfTheFootageEndsAResponse() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("responder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try recording("hopper-blinks")
        // hopper-blinks up to 3.4 s: its last blink (3.07-3.2 s) would be shown until 3.7 s.
        let writer = try RecordingWriter(directory: folder.path, info: source.info)
        for n in source.frames.indices where source.frames[n].t < 3.4 {
            try writer.append(jpeg: try source.jpeg(n), t: source.frames[n].t)
        }
        try writer.finish(truth: source.truth)
        let short = try Recording(directory: folder.path)
        let last = try short.jpeg(short.frames.count - 1)
        var person = try RespondingPerson(recording: short, seed: 2)
        let processor = try FrameProcessor(configuration: Configuration(), predictor: CheckOnRecordingsTests.predictor.get())
        var run = 0, longest = 0
        let verdict = try CheckRun.verdict(try Challenge(parsing: "blink"), seed: 2, person: &person, processor: processor) { frame in
            guard case .jpeg(let data) = frame.payload else { return }
            run = data == last ? run + 1 : 0
            longest = max(longest, run)
        }
        XCTAssertTrue(verdict.passed, "\(verdict)")
        XCTAssertGreaterThan(longest, 0, "the last blink was shown")
        XCTAssertLessThanOrEqual(longest, 2, "the last frame is shown once (twice when the person turns back there)")
    }

    func testBadFramesAndAnEmptyRecordingEndCleanly() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("responder-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = try recording("hopper-blinks")
        // Every other frame of hopper-blinks is garbage instead of a JPEG.
        let broken = folder.appendingPathComponent("broken")
        let writer = try RecordingWriter(directory: broken.path, info: source.info)
        for n in source.frames.indices {
            try writer.append(jpeg: n % 2 == 0 ? try source.jpeg(n) : Data(repeating: 0x5A, count: 300), t: source.frames[n].t)
        }
        try writer.finish(truth: source.truth)
        var person = try RespondingPerson(recording: Recording(directory: broken.path), seed: 1)
        let processor = try FrameProcessor(configuration: Configuration(), predictor: CheckOnRecordingsTests.predictor.get())
        let verdict = try CheckRun.verdict(try Challenge(parsing: "blink"), seed: 1, person: &person, processor: processor)
        XCTAssertGreaterThan(processor.badFrames, 0)
        XCTAssertLessThanOrEqual(verdict.t, person.maximumDuration)
        // Nothing but garbage: the person leaves after `maximumDuration`, no hang.
        let garbage = folder.appendingPathComponent("garbage")
        let junk = try RecordingWriter(directory: garbage.path, info: source.info)
        for n in 0..<10 { try junk.append(jpeg: Data(repeating: 0x11, count: 100), t: Double(n) / 30) }
        try junk.finish(truth: source.truth)
        var nobody = try RespondingPerson(recording: Recording(directory: garbage.path), seed: 1)
        let fresh = try FrameProcessor(configuration: Configuration(), predictor: CheckOnRecordingsTests.predictor.get())
        XCTAssertEqual(try CheckRun.verdict(try Challenge(parsing: "blink"), seed: 1, person: &nobody, processor: fresh).reason, .noFace)
        // No frames at all: refused with a clear error.
        let empty = folder.appendingPathComponent("empty")
        try RecordingWriter(directory: empty.path, info: source.info).finish(truth: source.truth)
        XCTAssertThrowsError(try RespondingPerson(recording: Recording(directory: empty.path), seed: 1)) { error in
            XCTAssertTrue("\(error)".contains("has no frames"), "\(error)")
        }
    }
}
