import Capture
import Events
import Liveness
import Pipeline
import Recordings

extension LivenessCheck {
    /// Runs the check on `source`'s frames, each processed in turn by `processor`, until its
    /// verdict or the end of the stream (which fails a check still running). `identity` reads
    /// the face's identity when the check asks for one (`needsIdentity(t:)`).
    public func run(_ source: inout some FrameSource, processor: FrameProcessor,
                    identity: (FrameResult) -> IdentityReading? = { _ in nil }, emit: (CheckOutput) -> Void) throws {
        var events: [Event] = []
        while verdict == nil {
            events.removeAll(keepingCapacity: true)
            guard let result = try processor.processNext(from: &source, emit: { events.append($0) }) else { break }
            observe(frame: result.index, t: result.t, events: events, faces: result.faces,
                    facesInView: result.facesInView, identity: identity(result), emit: emit)
        }
        finish(emit: emit)
    }

    /// Runs the check on `camera` through the live pipeline (the newest frame processed, late
    /// ones dropped) until its verdict, or until the pipeline is stopped or the camera fails
    /// (which fails a check still running). `started` is handed the pipeline before the first
    /// frame, so that a signal can stop it.
    public func run(camera: Camera, processor: FrameProcessor, identity: @escaping (FrameResult) -> IdentityReading?,
                    emit: @escaping (CheckOutput) -> Void, started: (LivePipeline) -> Void = { _ in }) throws {
        processor.limitFrameSize(width: camera.format.width, height: camera.format.height)
        var pipeline: LivePipeline?
        let live = LivePipeline(processor: processor, sink: DiscardingSink(), afterFrame: { result, events in
            self.observe(frame: result.index, t: result.t, events: events, faces: result.faces,
                         facesInView: result.facesInView, identity: identity(result), emit: emit)
            if self.verdict != nil { pipeline?.stop() }
        })
        pipeline = live
        started(live)
        var source = LiveSource(camera: camera, reconnector: Reconnector(deadline: 0), recorder: nil) { _ in }
        _ = try live.run(&source)
        finish(emit: emit)
    }
}

/// The check writes prompts and the verdict, not the event stream.
private final class DiscardingSink: EventSink {
    func write(_ event: Event) throws {}
}
