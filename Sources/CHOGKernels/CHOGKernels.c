// C kernels for the HOG detector. Compiled for the x86-64 baseline; the AVX2 code sits in
// functions with a target attribute and runs only after the runtime check. Elsewhere (other CPUs,
// other architectures) the check is false and the baseline `hog_vote_prepare` and the Swift paths run.
#include "CHOGKernels.h"

// The body of `hog_vote_prepare` and `hog_vote_prepare_avx2`: inlined into each, so the gradient
// loop is vectorized for the caller's instruction set (4 pixels at a time on the baseline, 8 with AVX2).
static inline __attribute__((always_inline))
void vote_prepare(const uint8_t *row, long width, long x0, long count, const int32_t *restrict voteColumn,
                  const float *restrict voteWeights, const uint8_t *restrict bins, int32_t *restrict index,
                  float *restrict weighted) {
#pragma clang fp contract(off)
    const uint8_t *above = row - width, *below = row + width;
    // Gradients, magnitudes and horizontal weights × magnitude: no dependence between pixels, so
    // the compiler runs this loop on vectors.
    for (long k = 0; k < count; k++) {
        long x = x0 + k;
        int32_t gx = (int32_t)row[x + 1] - (int32_t)row[x - 1];
        int32_t gy = (int32_t)below[x] - (int32_t)above[x];
        index[k] = gy * 511 + gx;
        float v = __builtin_elementwise_sqrt((float)(gx * gx + gy * gy));
        weighted[2 * k] = voteWeights[2 * x] * v;
        weighted[2 * k + 1] = voteWeights[2 * x + 1] * v;
    }
    // The histogram offsets, all read from the table before any vote is stored.
    for (long k = 0; k < count; k++) index[k] = voteColumn[x0 + k] * 18 + bins[index[k]];
}

void hog_vote_prepare(const uint8_t *row, long width, long x0, long count, const int32_t *voteColumn,
                      const float *voteWeights, const uint8_t *bins, int32_t *index, float *weighted) {
    vote_prepare(row, width, x0, count, voteColumn, voteWeights, bins, index, weighted);
}

// Pixel k's four votes, into a band's two histogram rows interleaved (`pairs[2j]` gets
// `vyA · w`, `pairs[2j + 1]` gets `vyB · w`): two 8-byte additions, each to a pair that a later
// pixel's pair overlaps fully or not at all.
static inline __attribute__((always_inline))
void vote(const int32_t *restrict index, const float *restrict weighted, long k, float vyA, float vyB, float *pairs) {
#pragma clang fp contract(off)
    float *first = pairs + 2 * (long)index[k], *next = first + 36;
    const float w0 = weighted[2 * k], w1 = weighted[2 * k + 1];
    const float f0 = first[0] + vyA * w0, f1 = first[1] + vyB * w0;
    first[0] = f0;
    first[1] = f1;
    const float n0 = next[0] + vyA * w1, n1 = next[1] + vyB * w1;
    next[0] = n0;
    next[1] = n1;
}

void hog_vote_apply(const int32_t *index, const float *weighted, long from, long to, float vyA, float vyB,
                    float *pairs) {
    for (long k = from; k < to; k++) vote(index, weighted, k, vyA, vyB, pairs);
}

void hog_vote_apply_pair(const int32_t *index, const float *weighted, long count, float vyA, float vyB,
                         const int32_t *laterIndex, const float *laterWeighted, float laterVyA, float laterVyB,
                         float *pairs) {
    long k = 0;
    for (; k < HOG_VOTE_LAG && k < count; k++) vote(index, weighted, k, vyA, vyB, pairs);
    for (; k < count; k++) {
        vote(index, weighted, k, vyA, vyB, pairs);
        vote(laterIndex, laterWeighted, k - HOG_VOTE_LAG, laterVyA, laterVyB, pairs);
    }
}

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

void hog_vote_band_out(float *pairs, long slot, long count, float *row) {
    long j = 0;
#if defined(__SSE2__)
    // Four values at a time: the chosen lanes of two vectors gathered by a shuffle, then masked
    // to zero in place.
    const __m128 keep = _mm_castsi128_ps(slot == 0 ? _mm_set_epi32(-1, 0, -1, 0) : _mm_set_epi32(0, -1, 0, -1));
    for (; j + 4 <= count; j += 4) {
        const __m128 a = _mm_loadu_ps(pairs + 2 * j), b = _mm_loadu_ps(pairs + 2 * j + 4);
        _mm_storeu_ps(row + j, slot == 0 ? _mm_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0))
                                         : _mm_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1)));
        _mm_storeu_ps(pairs + 2 * j, _mm_and_ps(a, keep));
        _mm_storeu_ps(pairs + 2 * j + 4, _mm_and_ps(b, keep));
    }
#endif
    for (; j < count; j++) {
        row[j] = pairs[2 * j + slot];
        pairs[2 * j + slot] = 0;
    }
}

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#include <immintrin.h>

__attribute__((target("avx2,fma")))
void hog_vote_prepare_avx2(const uint8_t *row, long width, long x0, long count, const int32_t *voteColumn,
                           const float *voteWeights, const uint8_t *bins, int32_t *index, float *weighted) {
    vote_prepare(row, width, x0, count, voteColumn, voteWeights, bins, index, weighted);
}

__attribute__((target("avx2,fma")))
static inline void store8(float *target, __m256 sum, bool adding) {
    _mm256_storeu_ps(target, adding ? _mm256_add_ps(sum, _mm256_loadu_ps(target)) : sum);
}

__attribute__((target("avx2,fma")))
static void correlate_two_rows(const float *s0, const float *s1, long step, const float *taps, long tapCount,
                               long count, float *t0, float *t1, bool adding, bool both) {
    long c = 0;
    for (; c + 32 <= count; c += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
        const float *p = s0 + c, *q = s1 + c;
        for (long n = 0; n < tapCount; n++, p += step, q += step) {
            __m256 w = _mm256_broadcast_ss(taps + n);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p), w, a0);
            a1 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 8), w, a1);
            a2 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 16), w, a2);
            a3 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 24), w, a3);
            b0 = _mm256_fmadd_ps(_mm256_loadu_ps(q), w, b0);
            b1 = _mm256_fmadd_ps(_mm256_loadu_ps(q + 8), w, b1);
            b2 = _mm256_fmadd_ps(_mm256_loadu_ps(q + 16), w, b2);
            b3 = _mm256_fmadd_ps(_mm256_loadu_ps(q + 24), w, b3);
        }
        store8(t0 + c, a0, adding); store8(t0 + c + 8, a1, adding);
        store8(t0 + c + 16, a2, adding); store8(t0 + c + 24, a3, adding);
        if (both) {
            store8(t1 + c, b0, adding); store8(t1 + c + 8, b1, adding);
            store8(t1 + c + 16, b2, adding); store8(t1 + c + 24, b3, adding);
        }
    }
    for (; c < count; c += 8) {
        __m256 a0 = _mm256_setzero_ps(), b0 = a0;
        const float *p = s0 + c, *q = s1 + c;
        for (long n = 0; n < tapCount; n++, p += step, q += step) {
            __m256 w = _mm256_broadcast_ss(taps + n);
            a0 = _mm256_fmadd_ps(_mm256_loadu_ps(p), w, a0);
            b0 = _mm256_fmadd_ps(_mm256_loadu_ps(q), w, b0);
        }
        store8(t0 + c, a0, adding);
        if (both) store8(t1 + c, b0, adding);
    }
}

// `correlate_two_rows` down the columns (`s1 = s0 + step`, `step` the row stride): each source
// row is loaded once and serves both output rows (tap n of the first, tap n − 1 of the second),
// so there are 6 loads to 8 multiply-adds instead of 9. The same sums in the same order.
__attribute__((target("avx2,fma")))
static void correlate_two_rows_down(const float *s0, long step, const float *taps, long tapCount, long count,
                                    float *t0, float *t1, bool adding) {
    long c = 0;
    for (; c + 32 <= count; c += 32) {
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0, b0 = a0, b1 = a0, b2 = a0, b3 = a0;
        const float *p = s0 + c;
        __m256 w = _mm256_broadcast_ss(taps);
        __m256 x0 = _mm256_loadu_ps(p), x1 = _mm256_loadu_ps(p + 8), x2 = _mm256_loadu_ps(p + 16), x3 = _mm256_loadu_ps(p + 24);
        a0 = _mm256_fmadd_ps(x0, w, a0); a1 = _mm256_fmadd_ps(x1, w, a1);
        a2 = _mm256_fmadd_ps(x2, w, a2); a3 = _mm256_fmadd_ps(x3, w, a3);
        for (long n = 1; n < tapCount; n++) {
            p += step;
            const __m256 v = _mm256_broadcast_ss(taps + n);
            x0 = _mm256_loadu_ps(p); x1 = _mm256_loadu_ps(p + 8); x2 = _mm256_loadu_ps(p + 16); x3 = _mm256_loadu_ps(p + 24);
            a0 = _mm256_fmadd_ps(x0, v, a0); a1 = _mm256_fmadd_ps(x1, v, a1);
            a2 = _mm256_fmadd_ps(x2, v, a2); a3 = _mm256_fmadd_ps(x3, v, a3);
            b0 = _mm256_fmadd_ps(x0, w, b0); b1 = _mm256_fmadd_ps(x1, w, b1);
            b2 = _mm256_fmadd_ps(x2, w, b2); b3 = _mm256_fmadd_ps(x3, w, b3);
            w = v;
        }
        p += step;
        b0 = _mm256_fmadd_ps(_mm256_loadu_ps(p), w, b0); b1 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 8), w, b1);
        b2 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 16), w, b2); b3 = _mm256_fmadd_ps(_mm256_loadu_ps(p + 24), w, b3);
        store8(t0 + c, a0, adding); store8(t0 + c + 8, a1, adding);
        store8(t0 + c + 16, a2, adding); store8(t0 + c + 24, a3, adding);
        store8(t1 + c, b0, adding); store8(t1 + c + 8, b1, adding);
        store8(t1 + c + 16, b2, adding); store8(t1 + c + 24, b3, adding);
    }
    if (c < count) correlate_two_rows(s0 + c, s0 + step + c, step, taps, tapCount, count - c, t0 + c, t1 + c, adding, true);
}

// `R` output rows × `V` vectors of 8 columns of a pass down the columns: source row `i` feeds
// output row `r` with tap `i − r`, so each load serves up to `R` rows, and the `R · V` sums are
// independent chains of fused multiply-adds (8 or more keep both FMA units busy). Each sum is
// that of `correlate_two_rows` (taps in order, from zero). Needs `tapCount ≥ R − 1`.
__attribute__((target("avx2,fma")))
static inline __attribute__((always_inline))
void correlate_down_block(const float *s, long step, const float *taps, const long tapCount, const long R, const long V,
                          float *t, long targetStride, bool adding) {
    __m256 acc[8][4];
    _Pragma("unroll") for (long r = 0; r < R; r++)
        _Pragma("unroll") for (long v = 0; v < V; v++) acc[r][v] = _mm256_setzero_ps();
    // Source row i, for the output rows r that `active` allows (tap i − r in range).
#define CORRELATE_DOWN_ROW(i, active) { \
        __m256 x[4]; \
        _Pragma("unroll") for (long v = 0; v < V; v++) x[v] = _mm256_loadu_ps(s + (i) * step + 8 * v); \
        _Pragma("unroll") for (long r = 0; r < R; r++) { \
            if (active) { \
                const __m256 w = _mm256_broadcast_ss(taps + (i) - r); \
                _Pragma("unroll") for (long v = 0; v < V; v++) acc[r][v] = _mm256_fmadd_ps(x[v], w, acc[r][v]); \
            } \
        } \
    }
    _Pragma("unroll") for (long i = 0; i < R - 1; i++) CORRELATE_DOWN_ROW(i, r <= i)
    for (long i = R - 1; i < tapCount; i++) CORRELATE_DOWN_ROW(i, true)
    _Pragma("unroll") for (long j = 0; j < R - 1; j++) CORRELATE_DOWN_ROW(tapCount + j, r > j)
#undef CORRELATE_DOWN_ROW
    _Pragma("unroll") for (long r = 0; r < R; r++)
        _Pragma("unroll") for (long v = 0; v < V; v++) store8(t + r * targetStride + 8 * v, acc[r][v], adding);
}

// `correlate_down_block` over `rows` rows of `V` vectors: 8 / V rows at a time, then one by one.
__attribute__((target("avx2,fma")))
static inline __attribute__((always_inline))
void correlate_down_columns(const float *source, long sourceStride, const float *taps, const long tapCount, const long V,
                            long rows, float *target, long targetStride, bool adding) {
    const long R = V == 1 ? 8 : V == 2 ? 4 : V == 3 ? 3 : 2;
    long r = 0;
    for (; r + R <= rows; r += R)
        correlate_down_block(source + r * sourceStride, sourceStride, taps, tapCount, R, V, target + r * targetStride,
                             targetStride, adding);
    for (; r < rows; r++)
        correlate_down_block(source + r * sourceStride, sourceStride, taps, tapCount, 1, V, target + r * targetStride,
                             targetStride, adding);
}

// `correlate_down_columns` for `V` (1–4) vectors.
__attribute__((target("avx2,fma")))
static inline __attribute__((always_inline))
void correlate_down_vectors(const float *source, long sourceStride, const float *taps, const long tapCount, long V,
                            long rows, float *target, long targetStride, bool adding) {
    switch (V) {
    case 1: correlate_down_columns(source, sourceStride, taps, tapCount, 1, rows, target, targetStride, adding); break;
    case 2: correlate_down_columns(source, sourceStride, taps, tapCount, 2, rows, target, targetStride, adding); break;
    case 3: correlate_down_columns(source, sourceStride, taps, tapCount, 3, rows, target, targetStride, adding); break;
    default: correlate_down_columns(source, sourceStride, taps, tapCount, 4, rows, target, targetStride, adding); break;
    }
}

// The last `count` (< 32) columns of a pass down the columns, every row: the blocks of two rows
// × 32 columns leave them, and two rows of 1–3 vectors would be too few chains to keep the FMA
// units busy. `tapCount` 10 (dlib's filters) gets its own unrolled copy.
__attribute__((target("avx2,fma")))
static void correlate_down_narrow(const float *source, long sourceStride, const float *taps, long tapCount, long count,
                                  long rows, float *target, long targetStride, bool adding) {
    const long V = (count + 7) / 8;
    if (tapCount == 10) correlate_down_vectors(source, sourceStride, taps, 10, V, rows, target, targetStride, adding);
    else correlate_down_vectors(source, sourceStride, taps, tapCount, V, rows, target, targetStride, adding);
}

__attribute__((target("avx2,fma")))
void hog_correlate_avx2(const float *source, long sourceStride, long step, const float *taps, long tapCount,
                        long count, long rows, float *target, long targetStride, bool adding) {
    // Down the columns with 7 or more taps, the last `count % 32` columns go separately.
    const bool down = step == sourceStride, narrow = down && tapCount >= 7 && count % 32 != 0;
    const long wide = narrow ? count / 32 * 32 : count;
    if (narrow) {
        correlate_down_narrow(source + wide, sourceStride, taps, tapCount, count - wide, rows, target + wide, targetStride,
                              adding);
        if (wide == 0) return;
    }
    long r = 0;
    for (; r + 2 <= rows; r += 2) {
        if (down) {
            correlate_two_rows_down(source + r * sourceStride, step, taps, tapCount, wide,
                                    target + r * targetStride, target + (r + 1) * targetStride, adding);
            continue;
        }
        correlate_two_rows(source + r * sourceStride, source + (r + 1) * sourceStride, step, taps, tapCount, count,
                           target + r * targetStride, target + (r + 1) * targetStride, adding, true);
    }
    if (r < rows) {
        // The last, odd row: read twice, written once.
        correlate_two_rows(source + r * sourceStride, source + r * sourceStride, step, taps, tapCount, wide,
                           target + r * targetStride, target + r * targetStride, adding, false);
    }
}

// Row passes of `P` parts over the same rows: rows `s0` and `s1` (the same row when `both` is
// false), `V` vectors of 8 columns at a time, part j's taps at `taps + j · tapCount` and its
// output rows at `t0 + j · partStride` and `t1 + j · partStride`. Each load serves every part,
// and each sum is that of `correlate_two_rows` (the same fused multiply-adds in the same order).
__attribute__((target("avx2,fma")))
static inline __attribute__((always_inline))
void correlate_rows_block(const float *s0, const float *s1, const float *taps, const long P, const long V,
                          long tapCount, float *t0, float *t1, long partStride, bool both) {
    __m256 acc[3][2][2];
    for (long j = 0; j < P; j++)
        for (long r = 0; r < 2; r++)
            for (long v = 0; v < V; v++) acc[j][r][v] = _mm256_setzero_ps();
    for (long n = 0; n < tapCount; n++) {
        __m256 x[2][2];
        for (long v = 0; v < V; v++) {
            x[0][v] = _mm256_loadu_ps(s0 + n + 8 * v);
            x[1][v] = _mm256_loadu_ps(s1 + n + 8 * v);
        }
        for (long j = 0; j < P; j++) {
            const __m256 w = _mm256_broadcast_ss(taps + j * tapCount + n);
            for (long r = 0; r < 2; r++)
                for (long v = 0; v < V; v++) acc[j][r][v] = _mm256_fmadd_ps(x[r][v], w, acc[j][r][v]);
        }
    }
    for (long j = 0; j < P; j++)
        for (long v = 0; v < V; v++) {
            _mm256_storeu_ps(t0 + j * partStride + 8 * v, acc[j][0][v]);
            if (both) _mm256_storeu_ps(t1 + j * partStride + 8 * v, acc[j][1][v]);
        }
}

__attribute__((target("avx2,fma")))
static inline __attribute__((always_inline))
void correlate_rows_parts(const float *s0, const float *s1, const float *taps, const long P, const long V,
                          long tapCount, long count, float *t0, float *t1, long partStride, bool both) {
    long c = 0;
    for (; c + 8 * V <= count; c += 8 * V)
        correlate_rows_block(s0 + c, s1 + c, taps, P, V, tapCount, t0 + c, t1 + c, partStride, both);
    for (; c < count; c += 8)
        correlate_rows_block(s0 + c, s1 + c, taps, P, 1, tapCount, t0 + c, t1 + c, partStride, both);
}

__attribute__((target("avx2,fma")))
void hog_correlate_rows_avx2(const float *source, long sourceStride, const float *taps, long parts, long tapCount,
                             long count, long rows, float *target, long targetPartStride, long targetStride) {
    if (parts == 1) {
        hog_correlate_avx2(source, sourceStride, 1, taps, tapCount, count, rows, target, targetStride, false);
        return;
    }
    for (long r = 0; r < rows; r += 2) {
        const bool both = r + 1 < rows;
        const float *s0 = source + r * sourceStride, *s1 = both ? s0 + sourceStride : s0;
        float *t0 = target + r * targetStride, *t1 = t0 + targetStride;
        if (parts == 2) correlate_rows_parts(s0, s1, taps, 2, 2, tapCount, count, t0, t1, targetPartStride, both);
        else correlate_rows_parts(s0, s1, taps, 3, 1, tapCount, count, t0, t1, targetPartStride, both);
    }
}

__attribute__((target("avx2,fma")))
void hog_resize_row_avx2(const uint8_t *top, const uint8_t *bottom, const int32_t *blockLeft, const uint8_t *shuffle,
                         const float *fractions, long blocks, float tbf, float invTBf, uint8_t *out) {
#pragma clang fp contract(off)
    const __m256 vTB = _mm256_set1_ps(tbf), vInvTB = _mm256_set1_ps(invTBf), one = _mm256_set1_ps(1);
    const __m256 half = _mm256_set1_ps(0.5f);
    for (long b = 0; b < blocks; b++) {
        // The 8 left neighbours and their right neighbours, from 16 bytes at the block's first left column.
        const __m128i order = _mm_loadu_si128((const __m128i *)(shuffle + 16 * b));
        const __m128i t = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(top + blockLeft[b])), order);
        const __m128i u = _mm_shuffle_epi8(_mm_loadu_si128((const __m128i *)(bottom + blockLeft[b])), order);
        const __m256 t0 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(t));
        const __m256 t1 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(t, 8)));
        const __m256 b0 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(u));
        const __m256 b1 = _mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(_mm_srli_si128(u, 8)));
        const __m256 lr = _mm256_loadu_ps(fractions + 8 * b), invLR = _mm256_sub_ps(one, lr);
        __m256 value = _mm256_mul_ps(_mm256_mul_ps(vInvTB, invLR), t0);
        value = _mm256_add_ps(value, _mm256_mul_ps(_mm256_mul_ps(vInvTB, lr), t1));
        value = _mm256_add_ps(value, _mm256_mul_ps(_mm256_mul_ps(vTB, invLR), b0));
        value = _mm256_add_ps(value, _mm256_mul_ps(_mm256_mul_ps(vTB, lr), b1));
        // (uint8)(double(value) + 0.5), that is the nearest integer with halves rounded up: the
        // nearest with halves to even, plus one where that was half below (value − nearest is
        // exact).
        const __m256 even = _mm256_round_ps(value, _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
        const __m256 up = _mm256_and_ps(_mm256_cmp_ps(_mm256_sub_ps(value, even), half, _CMP_EQ_OQ), one);
        const __m256i nearest = _mm256_cvttps_epi32(_mm256_add_ps(even, up));
        const __m128i words = _mm_packus_epi32(_mm256_castsi256_si128(nearest), _mm256_extracti128_si256(nearest, 1));
        _mm_storel_epi64((__m128i *)(out + 8 * b), _mm_packus_epi16(words, words));
    }
}

/// Bin `o` of the 8 cells from `cells` (18 floats per cell).
__attribute__((target("avx2,fma")))
static inline __m256 bin_of_8_cells(const float *cells, long o) {
    const __m256i offsets = _mm256_setr_epi32(0, 18, 36, 54, 72, 90, 108, 126);
    return _mm256_i32gather_ps(cells + o, offsets, 4);
}

__attribute__((target("avx2,fma")))
static inline __m256 block_norm(__m256 a, __m256 b, __m256 c, __m256 d) {
#pragma clang fp contract(off)
    const __m256 sum = _mm256_add_ps(_mm256_add_ps(_mm256_add_ps(_mm256_add_ps(a, b), c), d), _mm256_set1_ps(0.0001f));
    return _mm256_mul_ps(_mm256_set1_ps(0.2f), _mm256_sqrt_ps(sum));
}

__attribute__((target("avx2,fma")))
void hog_normalise_row_avx2(const float *hist, const float *n0, const float *n1, const float *n2,
                            long count, float *out, long planeSize) {
#pragma clang fp contract(off)
    for (long x = 0; x + 8 <= count; x += 8) {
        // The 8 cells' histograms turned bin-major: bins[o] holds bin o of each cell.
        __m256 bins[18];
        for (long o = 0; o < 18; o++) bins[o] = bin_of_8_cells(hist + 18 * x, o);
        const __m256 a = _mm256_loadu_ps(n0 + x), b = _mm256_loadu_ps(n0 + x + 1), c = _mm256_loadu_ps(n0 + x + 2);
        const __m256 d = _mm256_loadu_ps(n1 + x), e = _mm256_loadu_ps(n1 + x + 1), f = _mm256_loadu_ps(n1 + x + 2);
        const __m256 g = _mm256_loadu_ps(n2 + x), k = _mm256_loadu_ps(n2 + x + 1), l = _mm256_loadu_ps(n2 + x + 2);
        // The four 2×2 blocks around each cell, in the lane order of dlib's 4-wide code.
        const __m256 nn0 = block_norm(e, f, k, l), nn1 = block_norm(b, c, e, f);
        const __m256 nn2 = block_norm(d, e, g, k), nn3 = block_norm(a, b, d, e);
        const __m256 tenth = _mm256_set1_ps(0.1f);
        const __m256 s0 = _mm256_div_ps(tenth, nn0), s1 = _mm256_div_ps(tenth, nn1);
        const __m256 s2 = _mm256_div_ps(tenth, nn2), s3 = _mm256_div_ps(tenth, nn3);
        __m256 t0 = _mm256_setzero_ps(), t1 = t0, t2 = t0, t3 = t0;
        float *target = out + x;
        for (long o = 0; o < 18; o += 3) {
            __m256 u0 = _mm256_setzero_ps(), u1 = u0, u2 = u0, u3 = u0;
            for (long i = 0; i < 3; i++) {
                const __m256 h = bins[o + i];
                const __m256 h0 = _mm256_mul_ps(_mm256_min_ps(h, nn0), s0), h1 = _mm256_mul_ps(_mm256_min_ps(h, nn1), s1);
                const __m256 h2 = _mm256_mul_ps(_mm256_min_ps(h, nn2), s2), h3 = _mm256_mul_ps(_mm256_min_ps(h, nn3), s3);
                _mm256_storeu_ps(target + (o + i) * planeSize, _mm256_add_ps(_mm256_add_ps(h0, h1), _mm256_add_ps(h2, h3)));
                // (h(o) + h(o+1)) + h(o+2), then added to the running total.
                if (i == 0) { u0 = h0; u1 = h1; u2 = h2; u3 = h3; }
                else { u0 = _mm256_add_ps(u0, h0); u1 = _mm256_add_ps(u1, h1); u2 = _mm256_add_ps(u2, h2); u3 = _mm256_add_ps(u3, h3); }
            }
            t0 = _mm256_add_ps(t0, u0); t1 = _mm256_add_ps(t1, u1);
            t2 = _mm256_add_ps(t2, u2); t3 = _mm256_add_ps(t3, u3);
        }
        for (long o = 0; o < 9; o++) {
            const __m256 h = _mm256_add_ps(bins[o], bins[o + 9]);
            const __m256 h0 = _mm256_mul_ps(_mm256_min_ps(h, nn0), s0), h1 = _mm256_mul_ps(_mm256_min_ps(h, nn1), s1);
            const __m256 h2 = _mm256_mul_ps(_mm256_min_ps(h, nn2), s2), h3 = _mm256_mul_ps(_mm256_min_ps(h, nn3), s3);
            _mm256_storeu_ps(target + (o + 18) * planeSize, _mm256_add_ps(_mm256_add_ps(h0, h1), _mm256_add_ps(h2, h3)));
        }
        const __m256 scale = _mm256_set1_ps((float)(2 * 0.2357));
        _mm256_storeu_ps(target + 27 * planeSize, _mm256_mul_ps(t0, scale));
        _mm256_storeu_ps(target + 28 * planeSize, _mm256_mul_ps(t1, scale));
        _mm256_storeu_ps(target + 29 * planeSize, _mm256_mul_ps(t2, scale));
        _mm256_storeu_ps(target + 30 * planeSize, _mm256_mul_ps(t3, scale));
    }
}

#else

void hog_correlate_avx2(const float *source, long sourceStride, long step, const float *taps, long tapCount,
                        long count, long rows, float *target, long targetStride, bool adding) {
    (void)source; (void)sourceStride; (void)step; (void)taps; (void)tapCount; (void)count; (void)rows;
    (void)target; (void)targetStride; (void)adding;
}

void hog_correlate_rows_avx2(const float *source, long sourceStride, const float *taps, long parts, long tapCount,
                             long count, long rows, float *target, long targetPartStride, long targetStride) {
    (void)source; (void)sourceStride; (void)taps; (void)parts; (void)tapCount; (void)count; (void)rows; (void)target;
    (void)targetPartStride; (void)targetStride;
}

void hog_resize_row_avx2(const uint8_t *top, const uint8_t *bottom, const int32_t *blockLeft, const uint8_t *shuffle,
                         const float *fractions, long blocks, float tbf, float invTBf, uint8_t *out) {
    (void)top; (void)bottom; (void)blockLeft; (void)shuffle; (void)fractions; (void)blocks; (void)tbf; (void)invTBf;
    (void)out;
}

void hog_normalise_row_avx2(const float *hist, const float *n0, const float *n1, const float *n2,
                            long count, float *out, long planeSize) {
    (void)hist; (void)n0; (void)n1; (void)n2; (void)count; (void)out; (void)planeSize;
}

void hog_vote_prepare_avx2(const uint8_t *row, long width, long x0, long count, const int32_t *voteColumn,
                           const float *voteWeights, const uint8_t *bins, int32_t *index, float *weighted) {
    hog_vote_prepare(row, width, x0, count, voteColumn, voteWeights, bins, index, weighted);
}

#endif
