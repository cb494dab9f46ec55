#ifndef CLANDMARKKERNELS_H
#define CLANDMARKKERNELS_H

#include <stdbool.h>
#include <stdint.h>

/// `shape[k] += leaves[offsets[i] + k]` for every `k < count`, the leaves `i = 0, 1, …, n − 1` in
/// that order for every element (so each float sum is the one-leaf-at-a-time sum), 8 floats at a
/// time with AVX2. Call only when `cpu_has_avx2()` (CCPUFeatures) is true.
void landmarks_accumulate_avx2(const float *leaves, const long *offsets, long n, float *shape, long count);

#endif
