/// The scratch memory of a detection: pyramid levels, fHOG features, filter responses.
///
/// Buffers grow to the largest image seen and are then reused, so the pyramid, features and
/// filter responses of frame after frame need no new memory (the `detect` that returns an array
/// allocates that array; the one that fills an `inout` array does not). Not thread-safe: give
/// each calling thread its own workspace.
///
/// With `threads: 2` a large scan (a full frame, not the small area around a tracked face) splits
/// its pyramid levels in two parts of about equal work, the first on the calling thread and the
/// rest on a second one, each in its own buffers; the detections are exactly those of one thread.
public final class HOGWorkspace {
    let imageA = Storage<UInt8>(), imageB = Storage<UInt8>(), source = Storage<UInt8>()
    let resizeColumns = PyramidResize.Columns()
    var features = FHOG.Buffers()
    let scratch = Storage<Float>(), response = Storage<Float>()
    var candidates: [FaceDetection] = []
    var kept: [FaceDetection] = []
    /// The second thread and its buffers, when scans may use two threads.
    let helper: ScanHelper?

    /// `threads`: 1 (every scan on the calling thread) or 2 (large scans split over two threads;
    /// the second thread is started here and ends with the workspace).
    public init(threads: Int = 1) {
        precondition((1...2).contains(threads), "threads must be 1 or 2")
        helper = threads == 2 ? ScanHelper() : nil
    }

    deinit {
        helper?.stop()
    }

    /// A buffer that only grows, starting on a cache line (64 bytes).
    final class Storage<Element> {
        private(set) var pointer: UnsafeMutablePointer<Element>
        private var capacity = 0

        init() {
            pointer = Self.allocate(0)
        }

        /// At least `count` elements (contents unspecified after growing).
        func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
            if count > capacity {
                UnsafeMutableRawPointer(pointer).deallocate()
                // Room for 8-wide loads past the last element.
                pointer = Self.allocate(count + 16)
                capacity = count
            }
            return pointer
        }

        private static func allocate(_ count: Int) -> UnsafeMutablePointer<Element> {
            UnsafeMutableRawPointer.allocate(byteCount: count * MemoryLayout<Element>.stride, alignment: 64)
                .bindMemory(to: Element.self, capacity: count)
        }

        deinit { UnsafeMutableRawPointer(pointer).deallocate() }
    }
}
