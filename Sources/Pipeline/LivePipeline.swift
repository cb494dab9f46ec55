import Dispatch
import Events
import FaceCore
import Foundation
import Recordings

/// The daemon's pipeline: capture on its own queue, processing on another, events written in
/// frame order by a writer thread. Between capture and processing a one-slot handoff keeps only
/// the newest frame, so the daemon is never behind the camera: late frames are dropped and
/// counted, and latency stays bounded. Events reach the writer through a `BatchHandoff`, which
/// allocates nothing per event. A `stats` event is written every `statsInterval` seconds and
/// once more at the end.
///
/// `@unchecked Sendable`: its stored `var`s are of three kinds. Those shared between threads
/// (`stopping`, `failure`, `summary`, `latencies`, `lastFrame`, `lastArrival`, `lastStatsT`,
/// `backlog`, `shedLines`, `reportedShed`) are read and written only with `lock` held; the
/// processing queue's own (`frameEvents`, `observedDrops`, the processor) and the writer
/// thread's own (`statsLatencies`, `lastStats`, `writtenT`, `lastShedReport`) are touched by
/// that one thread, `lastStats` once by `run` before the threads start.
public final class LivePipeline: @unchecked Sendable {
    /// What a run did.
    public struct Summary: Sendable, Equatable {
        public var captured = 0
        public var processed = 0
        /// Frames the handoff replaced before processing took them.
        public var dropped = 0
        /// `nose` and `frame` lines dropped because the output could not keep up.
        public var droppedLines = 0

        /// Nothing captured, processed or dropped.
        public init() {}
    }

    private struct Captured {
        var frame: Frame?
        var error: FrameError?
        var arrival: Double
    }

    private let processor: FrameProcessor
    private let sink: EventSink
    private let statsInterval: Double
    /// The writer thread's work, in order: events to write, and frames whose events are all
    /// queued (for latencies and the time `stats` lines carry).
    private enum WriterJob {
        case event(Event)
        case frameDone(index: Int, t: Double, arrival: Double)
    }

    private let slot = FrameSlot<Captured>()
    private let writerJobs: BatchHandoff<WriterJob>
    private let lock = NSLock()
    private var stopping = false
    private var failure: Error?
    private var summary = Summary()
    private var latencies: [Double] = []
    /// The latencies a `stats` line summarises (writer thread only).
    private var statsLatencies: [Double] = []
    private var lastStats = (time: 0.0, captured: 0, processed: 0)
    /// The newest frame processed or skipped: `finish` and `stats` events carry its time, so
    /// that every event comes out in time order.
    private var lastFrame = (index: 0, t: 0.0)
    /// When the newest frame (or frame error) arrived from the source.
    private var lastArrival: Double?
    /// The latest `t` written (writer thread only): a `stats` line never goes before it.
    private var writtenT = 0.0
    /// The time of the last `stats` line; the next one waits for a later frame.
    private var lastStatsT: Double?
    /// Extra frames dropped before the handoff (e.g. by the camera driver), reported in `stats`.
    private let upstreamDrops: () -> Int
    /// Called on the processing queue after each processed frame with that frame's events.
    private let afterFrame: (FrameResult, [Event]) -> Void
    private var frameEvents: [Event] = []
    /// Events queued for the writer, and per-frame lines dropped because the queue was full.
    private var backlog = 0
    private var shedLines = 0
    private var reportedShed = 0
    private var lastShedReport = -Double.infinity

    /// Lines waiting for the writer beyond which per-frame lines are dropped.
    private let backlogLimit: Int
    private let observer: PipelineObserver?
    /// Events a broker sink lost, for `stats` (nil: no broker).
    private let brokerLost: (() -> Int)?
    /// Drops already reported to the observer: (handoff, camera).
    private var observedDrops = (handoff: 0, camera: 0)

    /// `afterFrame` runs on the processing queue after every processed frame, with what the
    /// processor made of it and the frame's events.
    /// `backlogLimit`: events waiting for a slow writer beyond which `nose` and `frame` lines are
    /// dropped (the default, 256, is about 4 s of one face at 30 fps). `observer` hears of every
    /// frame captured, dropped and processed (metrics);
    /// `brokerLost` gives the events an MQTT sink lost, for `stats` lines.
    public init(processor: FrameProcessor, sink: EventSink, statsInterval: Double = 1, backlogLimit: Int = 256,
                observer: PipelineObserver? = nil, brokerLost: (() -> Int)? = nil,
                upstreamDrops: @escaping () -> Int = { 0 }, afterFrame: @escaping (FrameResult, [Event]) -> Void = { _, _ in }) {
        self.backlogLimit = backlogLimit
        writerJobs = BatchHandoff(capacity: 2 * backlogLimit)
        self.observer = observer
        self.brokerLost = brokerLost
        self.processor = processor
        self.sink = sink
        self.statsInterval = statsInterval
        self.upstreamDrops = upstreamDrops
        self.afterFrame = afterFrame
    }

    /// Asks the run to end: capture stops, what was captured is processed and written. Safe from
    /// any thread (a signal handler's queue, a sink that failed).
    public func stop() {
        lock.lock()
        stopping = true
        lock.unlock()
    }

    /// Whether `stop()` was called.
    public var isStopping: Bool {
        lock.lock()
        defer { lock.unlock() }
        return stopping
    }

    /// Runs until the source ends, `stop()` is called, the source fails or the sink fails, then
    /// returns (rethrowing the source's or sink's error).
    public func run(_ source: inout some FrameSource) throws -> Summary {
        let started = MonotonicClock.now()
        lastStats = (started, 0, 0)
        let processing = DispatchGroup(), writing = DispatchGroup()
        DispatchQueue(label: "facewatch.processing").async(group: processing) { [self] in processLoop() }
        DispatchQueue(label: "facewatch.writer").async(group: writing) { [self] in writeLoop(firstStats: started + statsInterval) }

        // Capture runs on the calling thread (its own queue as far as the pipeline is concerned).
        var captureError: Error?
        while !isStopping {
            do {
                guard let frame = try source.nextFrame() else { break }
                record { $0.captured += 1 }
                observer?.frameCaptured()
                slot.put(Captured(frame: frame, error: nil, arrival: MonotonicClock.now()))
            } catch let error as FrameError {
                slot.put(Captured(frame: nil, error: error, arrival: MonotonicClock.now()))
            } catch {
                captureError = error
                break
            }
        }
        slot.close()
        processing.wait()
        writerJobs.close()
        writing.wait()
        var result = withLock { summary }
        result.dropped = slot.dropped
        result.droppedLines = withLock { shedLines }
        if let failure = withLock({ failure }) { throw failure }
        if let captureError { throw captureError }
        return result
    }

    private func processLoop() {
        var last = (index: 0, t: 0.0)
        while let item = slot.take() {
            let arrival = item.arrival
            reportDrops()
            if let error = item.error {
                processor.skip(index: error.index, t: error.t, because: error.problem) { event in enqueue(event) }
                if error.t >= last.t { last = (error.index, error.t) }
                observer?.framesDropped(1, reason: .decode)
            } else if let frame = item.frame {
                frameEvents.removeAll(keepingCapacity: true)
                let bad = processor.badFrames, started = MonotonicClock.now()
                let result = processor.process(frame) { event in
                    frameEvents.append(event)
                    enqueue(event)
                }
                if processor.badFrames > bad {
                    observer?.framesDropped(1, reason: .decode)
                } else {
                    let now = MonotonicClock.now()
                    observer?.frameProcessed(seconds: now - started, latency: now - arrival, faces: result.faces.count)
                }
                afterFrame(result, frameEvents)
                record {
                    $0.processed += 1
                }
                last = (frame.index, frame.t)
            }
            // After this frame's events: `stats` lines carry the time of the newest frame whose
            // events are written, so they stay in time order.
            writerJobs.append(.frameDone(index: last.index, t: last.t, arrival: arrival))
        }
        reportDrops()
        processor.finish(index: last.index, t: last.t) { event in enqueue(event) }
    }

    /// Tells the observer of the frames dropped since the last call (processing queue).
    private func reportDrops() {
        guard let observer else { return }
        let handoff = slot.dropped, camera = upstreamDrops()
        if handoff > observedDrops.handoff { observer.framesDropped(handoff - observedDrops.handoff, reason: .handoff) }
        if camera > observedDrops.camera { observer.framesDropped(camera - observedDrops.camera, reason: .camera) }
        observedDrops = (max(handoff, observedDrops.handoff), max(camera, observedDrops.camera))
    }

    /// Writes an event that did not come from a frame (e.g. the camera was unplugged), in order
    /// with the others. Safe from any thread.
    public func report(_ event: Event) {
        enqueue(event)
    }

    private func enqueue(_ event: Event) {
        // A reader slower than the camera must not make the daemon hoard events: past the
        // backlog limit the per-frame lines (nose, frame) are dropped and counted; discrete
        // events (blink, smile, face_found, errors, …) are always written.
        let shed = withLock { () -> Bool in
            if backlog >= backlogLimit && (event.type == .nose || event.type == .frame) {
                shedLines += 1
                return true
            }
            backlog += 1
            return false
        }
        if shed { return }
        writerJobs.append(.event(event))
    }

    /// The writer thread: writes the queued events in order, and a `stats` line every
    /// `statsInterval` seconds from `firstStats` and once more at the end (so that short runs
    /// report their drops too).
    private func writeLoop(firstStats: Double) {
        var batch: [WriterJob] = []
        batch.reserveCapacity(2 * backlogLimit)
        var nextStats = firstStats
        var open = true
        while open {
            open = writerJobs.take(into: &batch, until: nextStats)
            for job in batch {
                switch job {
                case .event(let event):
                    write(event)
                case .frameDone(let index, let t, let arrival):
                    let latency = (MonotonicClock.now() - arrival) * 1000
                    withLock {
                        latencies.append(latency)
                        lastFrame = (index, t)
                        lastArrival = arrival
                    }
                }
            }
            batch.removeAll(keepingCapacity: true)
            let now = MonotonicClock.now()
            if open && now >= nextStats {
                writeStats()
                nextStats += statsInterval * ((now - nextStats) / statsInterval + 1).rounded(.down)
            }
        }
        writeStats(final: true)
    }

    /// Writes one event (writer thread), first reporting lines shed since the last report.
    private func write(_ event: Event) {
        let (failed, shedSinceReport) = withLock { () -> (Bool, Int) in
            backlog -= 1
            let count = shedLines - reportedShed
            return (failure != nil, count)
        }
        guard !failed else { return }
        do {
            if shedSinceReport > 0 && event.t - lastShedReport >= 1 {
                withLock { reportedShed += shedSinceReport }
                lastShedReport = event.t
                try sink.write(Event(t: event.t, frame: event.frame, .error(
                    message: "output is slower than the camera: \(shedSinceReport) nose/frame lines dropped", code: "output_backlog")))
            }
            try sink.write(event)
            writtenT = max(writtenT, event.t)
        } catch {
            withLock {
                failure = error
                stopping = true
            }
        }
    }


    /// Runs on the writer thread. A period in which no frame was processed or skipped is
    /// reported with the next one (two `stats` lines never share a `t`). The final line, after
    /// everything else, carries the camera time at the end: the last frame's plus the time since
    /// it arrived.
    private func writeStats(final: Bool = false) {
        let now = MonotonicClock.now()
        let snapshot = withLock { () -> (Summary, (index: Int, t: Double))? in
            var frame = lastFrame
            frame.t = max(frame.t, writtenT)
            if final, let lastArrival { frame.t += max(now - lastArrival, 0) }
            // Times are written in milliseconds: compare what will be written.
            if let lastStatsT, (frame.t * 1000).rounded() <= (lastStatsT * 1000).rounded() { return nil }
            lastStatsT = frame.t
            // The two arrays trade storage, so neither is copied.
            swap(&latencies, &statsLatencies)
            return (summary, frame)
        }
        guard let (counts, frame) = snapshot else { return }
        let elapsed = max(now - lastStats.time, 1e-9)
        let timing = TimingSummary(sorting: &statsLatencies)
        statsLatencies.removeAll(keepingCapacity: true)
        let stats = Stats(fpsIn: Double(counts.captured - lastStats.captured) / elapsed,
                          fpsOut: Double(counts.processed - lastStats.processed) / elapsed,
                          dropped: slot.dropped + upstreamDrops(), latencyP50: timing.p50, latencyP95: timing.p95,
                          mqttLost: brokerLost?())
        lastStats = (now, counts.captured, counts.processed)
        guard withLock({ failure == nil }) else { return }
        do {
            try sink.write(Event(t: frame.t, frame: frame.index, .stats(stats)))
        } catch {
            withLock {
                failure = error
                stopping = true
            }
        }
    }

    private func record(_ change: (inout Summary) -> Void) {
        lock.lock()
        change(&summary)
        lock.unlock()
    }

    private func withLock<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }
}
