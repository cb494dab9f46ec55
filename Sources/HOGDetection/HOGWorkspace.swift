/// The scratch memory of one detection thread: pyramid levels, fHOG features, filter responses.
///
/// Buffers grow to the largest image seen and are then reused, so the pyramid, features and
/// filter responses of frame after frame need no new memory (the `detect` that returns an array
/// allocates that array; the one that fills an `inout` array does not). Not thread-safe: give
/// each thread its own workspace.
public final class HOGWorkspace {
    let imageA = Storage<UInt8>(), imageB = Storage<UInt8>(), source = Storage<UInt8>()
    let resizeColumns = PyramidResize.Columns()
    var features = FHOG.Buffers()
    let scratch = Storage<Float>(), response = Storage<Float>()
    var candidates: [FaceDetection] = []
    var kept: [FaceDetection] = []

    public init() {}

    /// A buffer that only grows.
    final class Storage<Element> {
        private(set) var pointer: UnsafeMutablePointer<Element>
        private var capacity = 0

        init() {
            pointer = UnsafeMutablePointer<Element>.allocate(capacity: 0)
        }

        /// At least `count` elements (contents unspecified after growing).
        func reserve(_ count: Int) -> UnsafeMutablePointer<Element> {
            if count > capacity {
                pointer.deallocate()
                // Room for 8-wide loads past the last element.
                pointer = UnsafeMutablePointer<Element>.allocate(capacity: count + 16)
                capacity = count
            }
            return pointer
        }

        deinit { pointer.deallocate() }
    }
}
