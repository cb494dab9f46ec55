import CV4L2

extension v4l2_buffer {
    /// Buffer `index` of a memory-mapped queue of the given type (capture or output), as
    /// VIDIOC_QUERYBUF, VIDIOC_QBUF and VIDIOC_DQBUF take it.
    init(mmapIndex index: Int, type: UInt32) {
        self.init()
        self.index = UInt32(index)
        self.type = type
        memory = V4L2_MEMORY_MMAP.rawValue
    }
}
