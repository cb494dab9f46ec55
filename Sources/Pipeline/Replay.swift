import Events
import Recordings

/// Runs a frame source through a processor as fast as it can, every frame processed, in order,
/// and writes the events to a sink. The same source gives the same events every time.
public enum Replay {
    /// What a replay did.
    public struct Summary: Sendable, Equatable {
        public var frames = 0
        public var badFrames = 0
        /// Wall-clock seconds spent.
        public var seconds = 0.0
    }

    /// Replays `source`. `problems` (e.g. a recording's non-fatal defects) are reported first as
    /// `error` events (code `recording`). A sink that fails (a closed pipe) stops the replay with
    /// its error; `afterFrame` is called after every processed frame (with what the processor made
    /// of it and the number of frames done so far).
    public static func run(_ source: inout some FrameSource, processor: FrameProcessor, problems: [String] = [],
                           sink: EventSink, afterFrame: (FrameResult, Int) throws -> Void = { _, _ in }) throws -> Summary {
        var failure: Error?
        let emit: (Event) -> Void = { event in
            guard failure == nil else { return }
            do { try sink.write(event) } catch { failure = error }
        }
        let started = MonotonicClock.now()
        for problem in problems {
            emit(Event(t: 0, frame: 0, .error(message: problem, code: "recording")))
        }
        var last = (index: 0, t: 0.0)
        while failure == nil {
            let frame: Frame?
            do {
                frame = try source.nextFrame()
            } catch let error as FrameError {
                processor.skip(index: error.index, t: error.t, because: error.problem, emit: emit)
                last = (error.index, error.t)
                continue
            }
            guard let frame else { break }
            let result = processor.process(frame, emit: emit)
            last = (frame.index, frame.t)
            try afterFrame(result, processor.processedFrames)
        }
        if failure == nil {
            processor.finish(index: last.index, t: last.t, emit: emit)
        }
        if let failure { throw failure }
        return Summary(frames: processor.processedFrames, badFrames: processor.badFrames, seconds: MonotonicClock.now() - started)
    }
}
