#ifndef CLANDMARKKERNELS_H
#define CLANDMARKKERNELS_H

#include <stdbool.h>
#include <stdint.h>

/// `shape[k] += leaves[offsets[i] + k]` for every `k < count`, the leaves `i = 0, 1, …, n − 1` in
/// that order for every element (so each float sum is the one-leaf-at-a-time sum), 8 floats at a
/// time with AVX2. Call only when `cpu_has_avx2()` (CCPUFeatures) is true.
void landmarks_accumulate_avx2(const float *leaves, const long *offsets, long n, float *shape, long count);

/// A 64-bit checksum of `bytes` bytes (a multiple of 8 at an 8-byte aligned `p`): four
/// Fletcher-style lanes of running sums and sums of sums over 64-bit words, mixed at the end.
/// It catches changed, missing, added and reordered words of a cached model file; it is not
/// a cryptographic hash.
uint64_t landmarks_checksum(const void *p, long bytes);

/// Asks for the cache lines holding the `bytes` bytes at `p` to be fetched (a hint to the CPU,
/// with no effect on any value): the fit asks for each leaf as soon as its tree is walked, so the
/// leaf is on its way while the other trees of the pass are walked.
static inline void landmarks_prefetch(const void *p, long bytes) {
    const char *line = (const char *)((uintptr_t)p & ~(uintptr_t)63), *last = (const char *)p + bytes - 1;
    for (; line <= last; line += 64) __builtin_prefetch(line, 0, 3);
}

#endif
