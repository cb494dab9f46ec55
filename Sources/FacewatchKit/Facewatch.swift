@_exported import Config
@_exported import Events
@_exported import FaceCore
@_exported import Liveness
@_exported import Pipeline
@_exported import Recordings
import Capture
import Foundation

/// Facewatch as a Swift library: the pipeline the `facewatch` command runs (dlib's HOG face
/// detector and 68-point landmarks, tracking, the blink / wink / smile / mouth state machines)
/// on a recording or a camera, its events delivered as an `AsyncSequence`, and the cued liveness
/// check.
///
/// ```swift
/// import FacewatchKit
///
/// let facewatch = Facewatch()
/// for try await event in facewatch.events(replaying: "Recordings/blinks-slow-move") {
///     if case .blink(let face, let start, let duration) = event.payload {
///         print("face \(face) blinked at \(start) s for \(Int(duration * 1000)) ms")
///     }
/// }
/// ```
///
/// Each stream runs the pipeline on a thread of its own, with its own models loaded from
/// `configuration` (the model files that `Scripts/setup-debian` installs); a failure to load
/// them or to read the recording ends the stream with that error. Ending the iteration (a
/// `break`, or cancelling the task) stops the pipeline.
public struct Facewatch: Sendable {
    /// Every setting of the pipeline: models, detector, tracking, expressions, output, camera
    /// (see the repository's `config.json`).
    public var configuration: Configuration

    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The settings of a `config.json` file.
    public init(contentsOf configurationFile: String) throws {
        configuration = try Configuration(contentsOf: configurationFile)
    }

    /// Every event of a recording folder, in order, as `facewatch replay` writes them (the
    /// same events, byte for byte once encoded), as fast as they are made.
    public func events(replaying recording: String) -> AsyncThrowingStream<Event, Error> {
        let configuration = self.configuration
        return AsyncThrowingStream { continuation in
            let stop = StopFlag()
            continuation.onTermination = { _ in stop.raise() }
            Self.run("facewatch.replay", continuation) {
                let processor = try FrameProcessor(configuration: configuration)
                let opened = try Recording(directory: recording)
                var source = Self.source(opened, configuration: configuration, stop: stop)
                _ = try Replay.run(&source, processor: processor, problems: opened.problems, sink: StreamSink(continuation: continuation))
            }
        }
    }

    /// What the pipeline made of every frame of a recording folder (faces, landmarks, measures)
    /// with that frame's events. Events not tied to a frame (the recording's defects first, the
    /// tracks closed at its end) come in the first and the last update.
    public func frames(replaying recording: String) -> AsyncThrowingStream<FrameUpdate, Error> {
        let configuration = self.configuration
        return AsyncThrowingStream { continuation in
            let stop = StopFlag()
            continuation.onTermination = { _ in stop.raise() }
            Self.run("facewatch.frames", continuation) {
                let processor = try FrameProcessor(configuration: configuration)
                let opened = try Recording(directory: recording)
                var source = Self.source(opened, configuration: configuration, stop: stop)
                let collected = EventCollector()
                _ = try Replay.run(&source, processor: processor, problems: opened.problems, sink: collected) { result, _ in
                    continuation.yield(FrameUpdate(result: result, events: collected.take()))
                }
                let closing = collected.take()
                if !closing.isEmpty, let last = opened.frames.last {
                    let frame = Frame(index: last.index, t: last.t, payload: .jpeg(Data()))
                    continuation.yield(FrameUpdate(result: FrameResult(frame: frame, faces: [], facesInView: 0, detections: []),
                                                   events: closing))
                }
            }
        }
    }

    /// The events of a camera (`configuration.camera`, or `device`), as `facewatch run` writes
    /// them: live, late frames dropped (counted in `stats` lines), an unplugged camera reopened
    /// for `camera.reconnect_for_s`. Runs until the iteration ends.
    public func events(camera device: String? = nil) -> AsyncThrowingStream<Event, Error> {
        var chosen = configuration.camera
        if let device { chosen.device = device }
        let configuration = self.configuration, camera = chosen
        return AsyncThrowingStream { continuation in
            let pipeline = Mailbox<LivePipeline>()
            continuation.onTermination = { _ in pipeline.value?.stop() }
            Self.run("facewatch.camera", continuation) {
                let processor = try FrameProcessor(configuration: configuration)
                let opened = try Camera(settings: camera.settings)
                defer { opened.close() }
                processor.limitFrameSize(width: opened.format.width, height: opened.format.height)
                let live = LivePipeline(processor: processor, sink: StreamSink(continuation: continuation),
                                        statsInterval: configuration.statsInterval, upstreamDrops: { opened.droppedFrames })
                pipeline.value = live
                var source = LiveSource(camera: opened, reconnector: Reconnector(deadline: camera.reconnectFor),
                                        recorder: nil, report: live.report)
                _ = try live.run(&source)
            }
        }
    }

    /// A cued liveness check of `challenge` on a recording, as `facewatch check --replay` runs
    /// it with the same seed: the verdict, with each step's trials and why a failed step failed.
    public func check(_ challenge: Challenge, seed: UInt64, settings: CheckSettings = CheckSettings(),
                      replaying recording: String) throws -> CheckVerdict {
        let processor = try FrameProcessor(configuration: configuration)
        let check = LivenessCheck(challenge: challenge, settings: settings, seed: seed)
        var source = RecordingSource(recording: try Recording(directory: recording))
        try check.run(&source, processor: processor) { _ in }
        return check.verdict!
    }

    /// A recording's frames decoded ahead on other threads, ending early once `stop` is raised.
    private static func source(_ recording: Recording, configuration: Configuration, stop: StopFlag) -> DecodeAheadSource {
        DecodeAheadSource(StoppableSource(base: RecordingSource(recording: recording)) { stop.isSet },
                          conversion: configuration.gray,
                          decoders: DecodeAheadSource.decoders(width: recording.info.width, height: recording.info.height))
    }

    /// Runs `body` on a thread of its own, then ends the stream (with `body`'s error, if any).
    private static func run<Element>(_ name: String, _ continuation: AsyncThrowingStream<Element, Error>.Continuation,
                                     _ body: @escaping @Sendable () throws -> Void) {
        let thread = Thread {
            do {
                try body()
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        thread.name = name
        thread.start()
    }
}

/// The events of one frame, gathered while it is processed (on the stream's thread only).
private final class EventCollector: EventSink {
    private var events: [Event] = []

    func write(_ event: Event) throws {
        events.append(event)
    }

    func take() -> [Event] {
        defer { events.removeAll() }
        return events
    }
}

/// A value set on one thread and read on another.
///
/// `@unchecked Sendable`: its one stored `var` is read and written only with `lock` held.
private final class Mailbox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value?

    var value: Value? {
        get {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
        set {
            lock.lock()
            stored = newValue
            lock.unlock()
        }
    }
}
