// C kernels for the DlibFormat module. Compiled for the x86-64 baseline; the AVX2 code sits in a
// function with a target attribute and runs only after the runtime check (CCPUFeatures).
// Elsewhere (other CPUs, other architectures) the Swift path runs.
#include "CDlibFormatKernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

__attribute__((target("avx2")))
long dlib_read_six_byte_floats_avx2(const uint8_t *bytes, long available, float *destination, long count) {
    // Each 128-bit lane holds two values, at bytes 0 and 6: [c1 m m m c2 e] [c1 m m m c2 e].
    const char z = (char)0x80;  // a shuffle index that gives a zero byte
    // The four control bytes, and what they must be once their sign bits are masked off.
    const __m256i controls = _mm256_setr_epi8(0, 4, 6, 10, z, z, z, z, z, z, z, z, z, z, z, z,
                                              0, 4, 6, 10, z, z, z, z, z, z, z, z, z, z, z, z);
    const __m256i expected = _mm256_setr_epi8(3, 1, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                              3, 1, 3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    // Per lane, as 32-bit integers: the two mantissas' magnitudes, then the two exponents'.
    const __m256i magnitudes = _mm256_setr_epi8(1, 2, 3, z, 7, 8, 9, z, 5, z, z, z, 11, z, z, z,
                                                1, 2, 3, z, 7, 8, 9, z, 5, z, z, z, 11, z, z, z);
    // The same integers' sign bits, each control byte moved to its integer's top byte.
    const __m256i signs = _mm256_setr_epi8(z, z, z, 0, z, z, z, 6, z, z, z, 4, z, z, z, 10,
                                           z, z, z, 0, z, z, z, 6, z, z, z, 4, z, z, z, 10);
    const __m256i gather = _mm256_setr_epi32(0, 1, 4, 5, 2, 3, 6, 7);  // mantissas low, exponents high
    const __m256i low7 = _mm256_set1_epi8(0x7F);
    const __m256i bias = _mm256_set1_epi64x(1023);
    const __m128i exponentBits = _mm_set1_epi32(0x7F800000);
    long done = 0;
    for (const uint8_t *p = bytes; done + 4 <= count && (p - bytes) + 28 <= available; p += 24, done += 4) {
        const __m256i v = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128((const __m128i *)p)),
                                                  _mm_loadu_si128((const __m128i *)(p + 12)), 1);
        const __m256i form = _mm256_cmpeq_epi8(_mm256_and_si256(_mm256_shuffle_epi8(v, controls), low7), expected);
        if ((uint32_t)_mm256_movemask_epi8(form) != 0xFFFFFFFFu) break;
        const __m256i sign = _mm256_srai_epi32(_mm256_shuffle_epi8(v, signs), 31);
        const __m256i integers = _mm256_sub_epi32(_mm256_xor_si256(_mm256_shuffle_epi8(v, magnitudes), sign), sign);
        const __m256i ordered = _mm256_permutevar8x32_epi32(integers, gather);
        const __m256d mantissas = _mm256_cvtepi32_pd(_mm256_castsi256_si128(ordered));
        const __m256i scaleBits = _mm256_slli_epi64(_mm256_add_epi64(_mm256_cvtepi32_epi64(_mm256_extracti128_si256(ordered, 1)), bias), 52);
        const __m128 values = _mm256_cvtpd_ps(_mm256_mul_pd(mantissas, _mm256_castsi256_pd(scaleBits)));
        const __m128i infinite = _mm_cmpeq_epi32(_mm_and_si128(_mm_castps_si128(values), exponentBits), exponentBits);
        if (_mm_movemask_epi8(infinite) != 0) break;
        _mm_storeu_ps(destination + done, values);
    }
    return done;
}

#else

long dlib_read_six_byte_floats_avx2(const uint8_t *bytes, long available, float *destination, long count) {
    (void)bytes; (void)available; (void)destination; (void)count;
    return 0;
}

#endif
