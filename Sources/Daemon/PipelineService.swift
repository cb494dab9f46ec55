import Foundation
import Pipeline
import Recordings
import ServiceLifecycle

/// A live pipeline as a service of a `ServiceGroup`: `run()` runs it on a thread of its own (the
/// pipeline blocks) until its source ends or a sink fails; a graceful shutdown of the group runs
/// `onGracefulShutdown` (which stops the pipeline), and a cancellation stops it. What was
/// captured is still processed and written. `ended` runs once the pipeline has returned.
///
/// `@unchecked Sendable`: `source` is handed to the one thread `run()` starts and used by that
/// thread only; `result` is read and written only with `lock` held.
final class PipelineService: Service, @unchecked Sendable {
    private let pipeline: LivePipeline
    private var source: any FrameSource
    private let onGracefulShutdown: @Sendable () -> Void
    private let ended: @Sendable () -> Void
    private let lock = NSLock()
    private var result: Result<LivePipeline.Summary, Error>?

    init(pipeline: LivePipeline, source: any FrameSource, onGracefulShutdown: @escaping @Sendable () -> Void,
         ended: @escaping @Sendable () -> Void) {
        self.pipeline = pipeline
        self.source = source
        self.onGracefulShutdown = onGracefulShutdown
        self.ended = ended
    }

    /// What the pipeline's run returned or threw (a pipeline that never ran: stopped, nothing done).
    var outcome: Result<LivePipeline.Summary, Error> {
        lock.withLock { result } ?? .success(LivePipeline.Summary())
    }

    func run() async {
        let pipeline = self.pipeline
        await withTaskCancellationHandler {
            await withGracefulShutdownHandler {
                await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
                    let thread = Thread { [self] in
                        let outcome = Result { try pipeline.run(&source) }
                        ended()
                        lock.withLock { result = outcome }
                        done.resume()
                    }
                    thread.name = "facewatch.pipeline"
                    thread.stackSize = 8 << 20
                    thread.start()
                }
            } onGracefulShutdown: { [onGracefulShutdown] in onGracefulShutdown() }
        } onCancel: {
            pipeline.stop()
        }
    }
}
