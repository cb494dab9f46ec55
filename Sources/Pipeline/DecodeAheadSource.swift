import Foundation
import Imaging
import Recordings

/// Decodes the next frames of a source on a second thread while the current one is processed:
/// JPEG frames come out as gray images, decoded exactly as `FrameProcessor` would (same
/// decoder, same conversion), so the events are the same byte for byte. A frame that does not
/// decode comes out as the `FrameError` the processor would have reported. At most `depth`
/// frames wait decoded; their images are reused once the consumer lets go of them.
public final class DecodeAheadSource: FrameSource {
    private let queue: DecodedQueue

    /// Starts decoding `base` ahead. `conversion` must be the processor's.
    public init(_ base: some FrameSource, conversion: GrayConversion, depth: Int = 4) {
        let queue = DecodedQueue(depth: max(depth, 1))
        self.queue = queue
        let worker = Thread { [base] in
            var source = base
            var decoder = JPEGDecoder()
            // Images cycle through a pool larger than the queue plus the frame being processed,
            // so that decoding reuses an image the consumer has dropped instead of allocating.
            var pool = [GrayImage](repeating: GrayImage(width: 0, height: 0), count: queue.depth + 2)
            var slot = 0
            while true {
                let item: DecodedQueue.Item
                do {
                    guard let frame = try source.nextFrame() else {
                        _ = queue.put(.end)
                        return
                    }
                    switch frame.payload {
                    case .gray:
                        item = .frame(frame)
                    case .jpeg(let jpeg):
                        do {
                            try decoder.decode(jpeg, into: &pool[slot], conversion: conversion)
                            item = .frame(Frame(index: frame.index, t: frame.t, payload: .gray(pool[slot])))
                            slot = (slot + 1) % pool.count
                        } catch {
                            item = .failed(FrameError(index: frame.index, t: frame.t, problem: "\(error)"))
                        }
                    }
                } catch {
                    item = .failed(error)
                }
                guard queue.put(item) else { return }
                if case .failed(let error) = item, !(error is FrameError) { return }
            }
        }
        worker.name = "facewatch.decode-ahead"
        worker.start()
    }

    deinit {
        queue.stop()
    }

    public func nextFrame() throws -> Frame? {
        switch queue.take() {
        case .frame(let frame): return frame
        case .failed(let error): throw error
        case .end: return nil
        }
    }
}

/// The bounded hand-over between the decoding thread and the consumer.
private final class DecodedQueue: @unchecked Sendable {
    enum Item {
        case frame(Frame)
        /// A `FrameError` (the stream goes on) or any other error (it ends).
        case failed(Error)
        case end
    }

    let depth: Int
    private let condition = NSCondition()
    private var items: [Item] = []
    private var stopped = false

    init(depth: Int) {
        self.depth = depth
    }

    /// Waits for room; false once the consumer is gone.
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while items.count >= depth && !stopped { condition.wait() }
        guard !stopped else { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The next item; `.end` (and a final error) stays for later calls.
    func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while items.isEmpty { condition.wait() }
        let item = items[0]
        switch item {
        case .frame: items.removeFirst()
        case .failed(let error) where error is FrameError: items.removeFirst()
        default: break
        }
        condition.broadcast()
        return item
    }

    func stop() {
        condition.lock()
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}
