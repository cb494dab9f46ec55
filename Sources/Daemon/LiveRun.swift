import Events
import Pipeline
import Recordings

/// One run of the live pipeline to standard output and the integrations, as `facewatch run`,
/// `serve` and `replay --speed` make it: SIGINT and SIGTERM stop it (what was captured is still
/// processed and written), and a reader that closes standard output ends it normally.
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
    /// Watches for SIGINT and SIGTERM as long as the run exists.
    private let signals: SignalWatcher

    /// A live pipeline from `processor` to `stdout` and `outputs`, stopped by SIGINT/SIGTERM.
    /// On a signal, `onSignal` runs first; then, with `giveUpAfter`, a stalled reader of
    /// standard output may hold up the closing lines that many seconds at most (nil: as long
    /// as it takes).
    public init(outputs: Integrations, processor: FrameProcessor, stdout: JSONLinesWriter, statsInterval: Double,
                upstreamDrops: @escaping () -> Int = { 0 }, giveUpAfter: Double? = nil,
                onSignal: @escaping @Sendable (Int32) -> Void = { _ in }) {
        let pipeline = outputs.pipeline(processor: processor, primary: stdout, statsInterval: statsInterval,
                                        upstreamDrops: upstreamDrops)
        self.pipeline = pipeline
        signals = SignalWatcher { number in
            onSignal(number)
            pipeline.stop()
            if let giveUpAfter { stdout.giveUp(after: giveUpAfter) }
        }
    }

    /// Runs until `source` ends or a signal stops it; rethrows the source's and the sinks'
    /// other errors.
    public func run(_ source: inout some FrameSource) throws -> Ending {
        do {
            return .finished(try pipeline.run(&source))
        } catch let error as EventsError where error.isBrokenPipe {
            return .readerGone
        } catch EventsError.writeTimedOut {
            return .writeTimedOut
        }
    }
}
