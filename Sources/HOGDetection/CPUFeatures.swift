import CCPUFeatures

/// What the CPU offers the C kernels of `CHOGKernels`, checked once.
enum CPUFeatures {
    /// Whether the AVX2/FMA kernels (`hog_correlate_avx2`, `hog_correlate_rows_avx2`,
    /// `hog_resize_row_avx2`, `hog_vote_prepare_avx2`, `hog_normalise_row_avx2`) may run.
    static let avx2 = cpu_has_avx2_fma()
}
