// C kernels for the Landmarks module. Compiled for the x86-64 baseline; the AVX2 code sits in a
// function with a target attribute and runs only after the runtime check. Elsewhere (other CPUs,
// other architectures) the check is false and the Swift path runs.
#include "CLandmarkKernels.h"

uint64_t landmarks_checksum(const void *p, long bytes) {
    const uint64_t *w = (const uint64_t *)p;
    long n = bytes / 8, i = 0;
    uint64_t a[4] = {1, 2, 3, 4}, b[4] = {0, 0, 0, 0};
    for (; i + 4 <= n; i += 4) {
        for (int j = 0; j < 4; j++) {
            a[j] += w[i + j];
            b[j] += a[j];
        }
    }
    for (; i < n; i++) {
        a[0] += w[i];
        b[0] += a[0];
    }
    uint64_t h = (uint64_t)bytes;
    for (int j = 0; j < 4; j++) {
        h = (h ^ a[j]) * 0x9E3779B97F4A7C15ull;
        h = (h ^ b[j]) * 0xBF58476D1CE4E5B9ull;
        h ^= h >> 31;
    }
    return h;
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

__attribute__((target("avx2")))
void landmarks_accumulate_avx2(const float *leaves, const long *offsets, long n, float *shape, long count) {
    long k = 0;
    // 32 elements at a time: four independent sums, the leaves' loads independent of each other.
    for (; k + 32 <= count; k += 32) {
        __m256 a0 = _mm256_loadu_ps(shape + k), a1 = _mm256_loadu_ps(shape + k + 8);
        __m256 a2 = _mm256_loadu_ps(shape + k + 16), a3 = _mm256_loadu_ps(shape + k + 24);
        for (long i = 0; i < n; i++) {
            const float *leaf = leaves + offsets[i] + k;
            a0 = _mm256_add_ps(a0, _mm256_loadu_ps(leaf));
            a1 = _mm256_add_ps(a1, _mm256_loadu_ps(leaf + 8));
            a2 = _mm256_add_ps(a2, _mm256_loadu_ps(leaf + 16));
            a3 = _mm256_add_ps(a3, _mm256_loadu_ps(leaf + 24));
        }
        _mm256_storeu_ps(shape + k, a0);
        _mm256_storeu_ps(shape + k + 8, a1);
        _mm256_storeu_ps(shape + k + 16, a2);
        _mm256_storeu_ps(shape + k + 24, a3);
    }
    for (; k + 8 <= count; k += 8) {
        __m256 a = _mm256_loadu_ps(shape + k);
        for (long i = 0; i < n; i++) a = _mm256_add_ps(a, _mm256_loadu_ps(leaves + offsets[i] + k));
        _mm256_storeu_ps(shape + k, a);
    }
    for (; k < count; k++) {
        float a = shape[k];
        for (long i = 0; i < n; i++) a += leaves[offsets[i] + k];
        shape[k] = a;
    }
}

#else

void landmarks_accumulate_avx2(const float *leaves, const long *offsets, long n, float *shape, long count) {
    (void)leaves; (void)offsets; (void)n; (void)shape; (void)count;
}

#endif
