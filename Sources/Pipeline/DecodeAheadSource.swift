import Foundation
import Imaging
import Recordings

/// Decodes the next frames of a source on other threads while the current one is processed:
/// JPEG frames come out as gray images, decoded exactly as `FrameProcessor` would (same
/// decoder, same conversion), in the source's order, so the events are the same byte for byte.
/// A frame that does not decode comes out as the `FrameError` the processor would have
/// reported. At most `depth` frames are read ahead of the consumer; their images are reused
/// once the consumer lets go of them.
///
/// With `decoders` threads, each reads the next frame from the source in turn and decodes it
/// while the others decode theirs: large frames (1280×720 and up) take longer to decode than to
/// process, and two decoders keep the processing thread busy (`decoders(width:height:)`).
public final class DecodeAheadSource: FrameSource {
    private let queue: DecodedQueue

    /// Starts decoding `base` ahead on `decoders` threads. `conversion` must be the processor's.
    public init(_ base: sending some FrameSource, conversion: GrayConversion, depth: Int = 4, decoders: Int = 1) {
        let decoders = max(decoders, 1)
        let queue = DecodedQueue(source: base, depth: max(depth, decoders, 1))
        self.queue = queue
        for n in 0..<decoders {
            let worker = Thread {
                var decoder = JPEGDecoder()
                // Images cycle through a pool larger than this thread's share of the queue plus
                // the frame being processed, so that decoding reuses an image the consumer has
                // dropped instead of allocating.
                var pool = [GrayImage](repeating: GrayImage(width: 0, height: 0), count: queue.depth + 2)
                var slot = 0
                while let (sequence, read) = queue.read() {
                    let item: DecodedQueue.Item
                    switch read {
                    case .success(nil):
                        item = .end
                    case .success(let frame?):
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
                    case .failure(let error):
                        item = .failed(error)
                    }
                    queue.put(item, at: sequence)
                }
            }
            worker.name = "facewatch.decode-ahead.\(n)"
            worker.start()
        }
    }

    deinit {
        queue.stop()
    }

    /// Decoding threads that keep up with processing frames of this size on this machine: two
    /// for frames of 1280×720 and more when there are two processors or more, otherwise one.
    public static func decoders(width: Int, height: Int) -> Int {
        width * height >= 1280 * 720 && ProcessInfo.processInfo.activeProcessorCount > 1 ? 2 : 1
    }

    public func nextFrame() throws -> Frame? {
        switch queue.take() {
        case .frame(let frame): return frame
        case .failed(let error): throw error
        case .end: return nil
        }
    }
}

/// The source, read in turn by the decoding threads, and the bounded, ordered hand-over of what
/// they decoded to the consumer.
///
/// `@unchecked Sendable`: every stored `var` (the source included, which the decoding threads
/// read in turn) is read and written only with `condition` locked; the source was `sending`.
private final class DecodedQueue: @unchecked Sendable {
    enum Item {
        case frame(Frame)
        /// A `FrameError` (the stream goes on) or any other error (it ends).
        case failed(Error)
        case end
    }

    let depth: Int
    private let condition = NSCondition()
    private var source: any FrameSource
    /// Items by sequence number modulo `depth`: sequence `s` is in `slots[s % depth]`.
    private var slots: [Item?]
    /// The next sequence number to read from the source, and the next the consumer takes.
    private var nextRead = 0
    private var nextTake = 0
    /// The source has ended (or failed): nothing more is read.
    private var ended = false
    private var stopped = false

    init(source: sending some FrameSource, depth: Int) {
        self.source = source
        self.depth = depth
        slots = [Item?](repeating: nil, count: depth)
    }

    /// The next frame of the source and its sequence number, once fewer than `depth` frames
    /// wait for the consumer; nil once the source has ended or the consumer is gone.
    func read() -> (Int, Result<Frame?, Error>)? {
        condition.lock()
        defer { condition.unlock() }
        while !stopped && !ended && nextRead - nextTake >= depth { condition.wait() }
        guard !stopped && !ended else { return nil }
        let sequence = nextRead
        nextRead += 1
        let result = Result { try source.nextFrame() }
        switch result {
        case .success(nil): ended = true
        case .failure(let error) where !(error is FrameError): ended = true
        default: break
        }
        return (sequence, result)
    }

    /// Hands over the item of sequence number `sequence`.
    func put(_ item: Item, at sequence: Int) {
        condition.lock()
        defer { condition.unlock() }
        guard !stopped else { return }
        slots[sequence % depth] = item
        condition.broadcast()
    }

    /// The next item in sequence; `.end` (and a final error) stays for later calls.
    func take() -> Item {
        condition.lock()
        defer { condition.unlock() }
        while slots[nextTake % depth] == nil { condition.wait() }
        let item = slots[nextTake % depth]!
        switch item {
        case .frame, .failed(is FrameError):
            slots[nextTake % depth] = nil
            nextTake += 1
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
