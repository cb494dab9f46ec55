// C kernels for the Imaging module. Compiled for the x86-64 baseline; the AVX2 code sits in
// functions with a target attribute and runs only after the runtime check. Elsewhere (other CPUs,
// other architectures) the check is false and the Swift paths run.
#include "CImagingKernels.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

// One source coordinate of 4 output pixels, clamped to [0, max] as the Swift `min(max(p, 0), max)`
// (`max_pd(p, 0)` returns +0 for −0, as Swift's `max` does), its integer part, the next sample
// (no further than `last`) and the fraction.
__attribute__((target("avx2")))
static inline void axis(__m256d p, __m256d max, __m128i last, __m128i *lower, __m128i *upper, __m256d *fraction) {
    p = _mm256_min_pd(_mm256_max_pd(p, _mm256_setzero_pd()), max);
    *lower = _mm256_cvttpd_epi32(p);
    *upper = _mm_min_epi32(_mm_add_epi32(*lower, _mm_set1_epi32(1)), last);
    *fraction = _mm256_sub_pd(p, _mm256_cvtepi32_pd(*lower));
}

// The 4 source pixels at `index`, as doubles.
__attribute__((target("avx2")))
static inline __m256d pixels(const uint8_t *source, __m128i index) {
    return _mm256_cvtepi32_pd(_mm_setr_epi32(source[_mm_extract_epi32(index, 0)], source[_mm_extract_epi32(index, 1)],
                                             source[_mm_extract_epi32(index, 2)], source[_mm_extract_epi32(index, 3)]));
}

__attribute__((target("avx2")))
void imaging_resample_avx2(const uint8_t *source, long sourceWidth, long sourceHeight, double centerX,
                           double centerY, double c, double s, uint8_t *out, long width, long height) {
#pragma clang fp contract(off)
    const double halfW = (double)width / 2, halfH = (double)height / 2;
    const double maxX = (double)(sourceWidth - 1), maxY = (double)(sourceHeight - 1);
    const __m256d vc = _mm256_set1_pd(c), vs = _mm256_set1_pd(s), vMaxX = _mm256_set1_pd(maxX), vMaxY = _mm256_set1_pd(maxY);
    const __m256d vCenterX = _mm256_set1_pd(centerX), vCenterY = _mm256_set1_pd(centerY);
    const __m256d half = _mm256_set1_pd(0.5), one = _mm256_set1_pd(1), vHalfW = _mm256_set1_pd(halfW);
    const __m128i lastX = _mm_set1_epi32((int)(sourceWidth - 1)), lastY = _mm_set1_epi32((int)(sourceHeight - 1));
    const __m128i stride = _mm_set1_epi32((int)sourceWidth);
    for (long row = 0; row < height; row++) {
        const double v = (double)row + 0.5 - halfH;
        const __m256d sv = _mm256_set1_pd(s * v), cv = _mm256_set1_pd(c * v);
        uint8_t *target = out + row * width;
        long column = 0;
        for (; column + 4 <= width; column += 4) {
            const __m256d columns = _mm256_add_pd(_mm256_set1_pd((double)column), _mm256_setr_pd(0, 1, 2, 3));
            const __m256d u = _mm256_sub_pd(_mm256_add_pd(columns, half), vHalfW);
            const __m256d sx = _mm256_sub_pd(_mm256_sub_pd(_mm256_add_pd(vCenterX, _mm256_mul_pd(vc, u)), sv), half);
            const __m256d sy = _mm256_sub_pd(_mm256_add_pd(_mm256_add_pd(vCenterY, _mm256_mul_pd(vs, u)), cv), half);
            __m128i x0, x1, y0, y1;
            __m256d fx, fy;
            axis(sx, vMaxX, lastX, &x0, &x1, &fx);
            axis(sy, vMaxY, lastY, &y0, &y1, &fy);
            const __m128i top = _mm_mullo_epi32(y0, stride), bottom = _mm_mullo_epi32(y1, stride);
            const __m256d gx = _mm256_sub_pd(one, fx), gy = _mm256_sub_pd(one, fy);
            const __m256d upper = _mm256_add_pd(_mm256_mul_pd(pixels(source, _mm_add_epi32(top, x0)), gx),
                                                _mm256_mul_pd(pixels(source, _mm_add_epi32(top, x1)), fx));
            const __m256d lower = _mm256_add_pd(_mm256_mul_pd(pixels(source, _mm_add_epi32(bottom, x0)), gx),
                                                _mm256_mul_pd(pixels(source, _mm_add_epi32(bottom, x1)), fx));
            const __m256d value = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(upper, gy), _mm256_mul_pd(lower, fy)), half);
            const __m128i words = _mm_packus_epi32(_mm256_cvttpd_epi32(value), _mm_setzero_si128());
            const int bytes = _mm_cvtsi128_si32(_mm_packus_epi16(words, words));
            __builtin_memcpy(target + column, &bytes, 4);
        }
        for (; column < width; column++) {
            const double u = (double)column + 0.5 - halfW;
            double sx = centerX + c * u - s * v - 0.5, sy = centerY + s * u + c * v - 0.5;
            sx = sx > 0 ? sx : 0;
            sx = sx < maxX ? sx : maxX;
            sy = sy > 0 ? sy : 0;
            sy = sy < maxY ? sy : maxY;
            const long x0 = (long)sx, y0 = (long)sy;
            const long x1 = x0 + 1 < sourceWidth - 1 ? x0 + 1 : sourceWidth - 1;
            const long y1 = y0 + 1 < sourceHeight - 1 ? y0 + 1 : sourceHeight - 1;
            const double fx = sx - (double)x0, fy = sy - (double)y0;
            const double upper = (double)source[y0 * sourceWidth + x0] * (1 - fx) + (double)source[y0 * sourceWidth + x1] * fx;
            const double lower = (double)source[y1 * sourceWidth + x0] * (1 - fx) + (double)source[y1 * sourceWidth + x1] * fx;
            target[column] = (uint8_t)(upper * (1 - fy) + lower * fy + 0.5);
        }
    }
}

#else

void imaging_resample_avx2(const uint8_t *source, long sourceWidth, long sourceHeight, double centerX,
                           double centerY, double c, double s, uint8_t *out, long width, long height) {
    (void)source; (void)sourceWidth; (void)sourceHeight; (void)centerX; (void)centerY; (void)c; (void)s;
    (void)out; (void)width; (void)height;
}

#endif
