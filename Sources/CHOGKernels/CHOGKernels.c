// AVX2/FMA kernels for the HOG detector. Compiled for the x86-64 baseline; the AVX2 code sits in
// functions with a target attribute and runs only after the runtime check. Elsewhere (other CPUs,
// other architectures) the check is false and the Swift SIMD path runs.
#include "CHOGKernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

bool hog_has_avx2_fma(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

__attribute__((target("avx2,fma")))
void hog_correlate_avx2(const float *source, long step, const float *taps, long tapCount, long count,
                        float *target, bool adding) {
    long c = 0;
    for (; c + 32 <= count; c += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = _mm256_setzero_ps(), a2 = _mm256_setzero_ps(), a3 = _mm256_setzero_ps();
        const float *p = source + c;
        for (long n = 0; n < tapCount; n++, p += step) {
            __m256 w = _mm256_broadcast_ss(taps + n);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p), w, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 8), w, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 16), w, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 24), w, a3);
        }
        if (adding) {
            a0 = _mm256_add_ps(a0, _mm256_loadu_ps(target + c));
            a1 = _mm256_add_ps(a1, _mm256_loadu_ps(target + c + 8));
            a2 = _mm256_add_ps(a2, _mm256_loadu_ps(target + c + 16));
            a3 = _mm256_add_ps(a3, _mm256_loadu_ps(target + c + 24));
        }
        _mm256_storeu_ps(target + c, a0);
        _mm256_storeu_ps(target + c + 8, a1);
        _mm256_storeu_ps(target + c + 16, a2);
        _mm256_storeu_ps(target + c + 24, a3);
    }
    for (; c + 8 <= count; c += 8) {
        __m256 a0 = _mm256_setzero_ps();
        const float *p = source + c;
        for (long n = 0; n < tapCount; n++, p += step) {
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p), _mm256_broadcast_ss(taps + n), a0);
        }
        if (adding) a0 = _mm256_add_ps(a0, _mm256_loadu_ps(target + c));
        _mm256_storeu_ps(target + c, a0);
    }
    for (; c < count; c++) {
        float sum = 0;
        const float *p = source + c;
        for (long n = 0; n < tapCount; n++, p += step) sum += *p * taps[n];
        target[c] = adding ? target[c] + sum : sum;
    }
}

#else

bool hog_has_avx2_fma(void) { return false; }

void hog_correlate_avx2(const float *source, long step, const float *taps, long tapCount, long count,
                        float *target, bool adding) {
    (void)source; (void)step; (void)taps; (void)tapCount; (void)count; (void)target; (void)adding;
}

#endif
