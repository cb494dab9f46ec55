#ifndef CHOGKERNELS_H
#define CHOGKERNELS_H

#include <stdbool.h>

/// True when the CPU runs AVX2 and FMA, so `hog_correlate_avx2` may be called.
bool hog_has_avx2_fma(void);

/// For each of `rows` rows `r`: `target[r·targetStride + c] (+)= Σ_n source[r·sourceStride + c + n·step] · taps[n]`
/// for `c` in `0..<count`: one pass of a separable correlation, two rows and 32 columns at a time
/// with AVX2/FMA. `count` is rounded up to a multiple of 8: up to 7 more values are written after
/// each row's `count` (and read accordingly), so buffers need that slack. Call only when
/// `hog_has_avx2_fma()` is true.
void hog_correlate_avx2(const float *source, long sourceStride, long step, const float *taps, long tapCount,
                        long count, long rows, float *target, long targetStride, bool adding);

#endif
