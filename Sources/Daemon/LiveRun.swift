import Dispatch
import Events
import Pipeline
import Recordings
import ServiceLifecycle

/// One run of the live pipeline to standard output and the integrations, as `facewatch run`,
/// `serve` and `replay --speed` make it: the pipeline and the web server are the services of one
/// `ServiceGroup`. SIGINT and SIGTERM shut the group down gracefully: the pipeline stops first
/// (what was captured is still processed and written), then the web server. A pipeline that ends
/// (its source did, or a sink failed) shuts the web server down; a web server that fails stops
/// the pipeline. A reader that closes standard output ends the run normally.
public final class LiveRun {
    /// How a run ended, when it did not fail.
    public enum Ending: Sendable, Equatable {
        /// The source ended or a signal stopped the run, and every event was written.
        case finished(LivePipeline.Summary)
        /// The reader of standard output went away (`facewatch run | head`).
        case readerGone
        /// A signal stopped the run while standard output was not being read: the closing
        /// lines were not written.
        case writeTimedOut
    }

    /// The pipeline: its `report` takes events from the source, `isStopping` tells a paced
    /// source to end.
    public let pipeline: LivePipeline
    private let outputs: Integrations
    private let onSignal: @Sendable () -> Void

    /// A live pipeline from `processor` to `stdout` and `outputs`. On SIGINT or SIGTERM,
    /// `onSignal` runs first; then, with `giveUpAfter`, a stalled reader of standard output may
    /// hold up the closing lines that many seconds at most (nil: as long as it takes).
    public init(outputs: Integrations, processor: FrameProcessor, stdout: JSONLinesWriter, statsInterval: Double,
                upstreamDrops: @escaping () -> Int = { 0 }, giveUpAfter: Double? = nil,
                onSignal: @escaping @Sendable () -> Void = {}) {
        let pipeline = outputs.pipeline(processor: processor, primary: stdout, statsInterval: statsInterval,
                                        upstreamDrops: upstreamDrops)
        self.pipeline = pipeline
        self.outputs = outputs
        self.onSignal = {
            onSignal()
            pipeline.stop()
            if let giveUpAfter { stdout.giveUp(after: giveUpAfter) }
        }
    }

    /// Runs until `source` ends, a signal stops the run or the web server fails (which
    /// `Integrations.finish()` then returns); rethrows the source's and the sinks' other errors.
    public func run(_ source: some FrameSource) throws -> Ending {
        let web = outputs.web
        let running = PipelineService(pipeline: pipeline, source: source, onGracefulShutdown: onSignal) {
            web?.finishChecks()  // a check still running ends before the server does
        }
        // Shut down in reverse order: the pipeline first, so that the web page gets its last events.
        var services: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if let web {
            services.append(.init(service: web.service(logger: outputs.logger), successTerminationBehavior: .cancelGroup,
                                  failureTerminationBehavior: .cancelGroup))
        }
        services.append(.init(service: running, successTerminationBehavior: .gracefullyShutdownGroup,
                              failureTerminationBehavior: .gracefullyShutdownGroup))
        var configuration = ServiceGroupConfiguration(services: services, logger: outputs.logger)
        configuration.gracefulShutdownSignals = [.sigterm, .sigint]
        configuration.maximumGracefulShutdownDuration = .seconds(5)  // then the web server is cancelled
        let group = ServiceGroup(configuration: configuration)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            try? await group.run()  // the web server's error is kept by the web session
            done.signal()
        }
        done.wait()
        do {
            return .finished(try running.outcome.get())
        } catch let error as EventsError where error.isBrokenPipe {
            return .readerGone
        } catch EventsError.writeTimedOut {
            return .writeTimedOut
        }
    }
}
