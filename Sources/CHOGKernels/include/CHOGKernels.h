#ifndef CHOGKERNELS_H
#define CHOGKERNELS_H

#include <stdbool.h>
#include <stdint.h>

/// For each of `rows` rows `r`: `target[r·targetStride + c] (+)= Σ_n source[r·sourceStride + c + n·step] · taps[n]`
/// for `c` in `0..<count`: one pass of a separable correlation, two rows and 32 columns at a time
/// with AVX2/FMA (down the columns, `step == sourceStride`, each source row is loaded once for both
/// rows, and with 7 or more taps the columns after the last block of 32 go up to 8 rows at a
/// time, each sum in the same order). `count` is rounded up to a multiple of 8: up to 7 more
/// values are written after each row's `count` (and read accordingly), so buffers need that
/// slack. Call only when `cpu_has_avx2_fma()` (CCPUFeatures) is true.
void hog_correlate_avx2(const float *source, long sourceStride, long step, const float *taps, long tapCount,
                        long count, long rows, float *target, long targetStride, bool adding);

/// The row passes of `parts` (1...3) rank-one filter parts that read the same rows: for each
/// part j, `rows` rows of `count` outputs (a multiple of 8 is computed; up to 7 values past
/// `count` are written), `target[j · targetPartStride + r · targetStride + c] =
/// Σ_n taps[j · tapCount + n] · source[r · sourceStride + c + n]`, each sum exactly as
/// `hog_correlate_avx2` with `step` 1 computes it. Loading each input once for all the parts
/// makes it about twice as fast as one call per part. Call only when `cpu_has_avx2_fma()`
/// (CCPUFeatures) is true.
void hog_correlate_rows_avx2(const float *source, long sourceStride, const float *taps, long parts, long tapCount,
                             long count, long rows, float *target, long targetPartStride, long targetStride);

/// One image row's fHOG votes, dlib's 8-wide path (`extract_fhog_features`), step 1: for each
/// pixel `x = x0 + k`, `k < count`, of `row` (the rows above and below are `width` bytes away),
/// the gradient's orientation bin `bins[(gy · 511) + gx]` (`bins` points at gradient 0, 0),
/// magnitude `v = √(gx² + gy²)` and weights `(vx1·v, vx0·v)` from `voteWeights[2x…2x+1]`, into
/// `weighted[2k…2k+1]`, and the offset of its first histogram cell and bin,
/// `voteColumn[x] · 18 + bin`, into `index[k]`.
void hog_vote_prepare(const uint8_t *row, long width, long x0, long count, const int32_t *voteColumn,
                      const float *voteWeights, const uint8_t *bins, int32_t *index, float *weighted);

/// `hog_vote_prepare` with its gradient loop on AVX2 vectors (8 pixels at a time): the same
/// values. Call only when `cpu_has_avx2_fma()` (CCPUFeatures) is true.
void hog_vote_prepare_avx2(const uint8_t *row, long width, long x0, long count, const int32_t *voteColumn,
                           const float *voteWeights, const uint8_t *bins, int32_t *index, float *weighted);

/// Step 2, the votes of pixels `from..<to` of a prepared row into the two histogram rows of the
/// row's band of 8 image rows (cell row `iyp + 1`, the upper, and the next), interleaved in
/// `pairs`: value `j` (18 per cell, cell-major) of one row at `pairs[2j]`, of the other at
/// `pairs[2j + 1]`. `vyA` and `vyB` are the vertical weights of the rows at those places (`vy1`
/// for the upper row, `vy0` for the lower). `vyA·(vx1·v)` and `vyB·(vx1·v)` go to value
/// `index[k]`, `vyA·(vx0·v)` and `vyB·(vx0·v)` to the same bin of the next cell (18 values on), in
/// pixel order and without fused multiply-adds, so every sum equals dlib's.
void hog_vote_apply(const int32_t *index, const float *weighted, long from, long to, float vyA, float vyB,
                    float *pairs);

/// How many pixels the later row of `hog_vote_apply_pair` runs behind the earlier one: two cells'
/// width, so the two rows' votes at any moment land in different cell columns.
#define HOG_VOTE_LAG 16

/// `hog_vote_apply` of pixels `0..<count` of a row and pixels `0..<count − HOG_VOTE_LAG` of the
/// next row of the same band, interleaved: pixel `k` of the later row right after pixel
/// `k + HOG_VOTE_LAG` of the earlier one. A pixel votes into its own cell column and the next, and
/// a row's cell columns advance one every 8 pixels, so the two rows never vote into the same value
/// out of order: every sum is the one the rows give one after the other. The two rows' chains of
/// adds (a pixel's votes wait on the previous pixel's when they land on the same values) overlap.
/// The caller finishes the later row (pixels from `count − HOG_VOTE_LAG`) after any votes of the
/// earlier row beyond `count`.
void hog_vote_apply_pair(const int32_t *index, const float *weighted, long count, float vyA, float vyB,
                         const int32_t *laterIndex, const float *laterWeighted, float laterVyA, float laterVyB,
                         float *pairs);

/// Moves the `count` values of one row out of `pairs` (the row at `pairs[2j + slot]`) into `row`,
/// and zeroes them there: the finished upper row of a band leaves, and its place becomes the next
/// band's lower row, while the lower row stays as the next band's upper one.
void hog_vote_band_out(float *pairs, long slot, long count, float *row);

/// `blocks` blocks of 8 pixels of one output row of dlib's bilinear resize (its 4-wide float path):
/// block `b`'s pixels interpolate `top` and `bottom` (the input rows around the output row, with
/// vertical weights `tbf` and `invTBf`) between the columns `blockLeft[b] + shuffle[16b + i]` and
/// `blockLeft[b] + shuffle[16b + 8 + i]` with the horizontal fractions `fractions[8b + i]`, as
/// `(invTB·(1−f))·tl + (invTB·f)·tr + (tb·(1−f))·bl + (tb·f)·br` in float without fused
/// multiply-adds, rounded as `(uint8)((double)value + 0.5)`, into `out[8b + i]`. Reads 16 bytes
/// of each row from each `blockLeft[b]`. Call only when `cpu_has_avx2_fma()` (CCPUFeatures) is true.
void hog_resize_row_avx2(const uint8_t *top, const uint8_t *bottom, const int32_t *blockLeft, const uint8_t *shuffle,
                         const float *fractions, long blocks, float tbf, float invTBf, uint8_t *out);

/// dlib's fHOG block normalisation of `count / 8 · 8` cells of one row, 8 cells at a time: cell
/// `x`'s histogram at `hist[18x…18x + 17]`, the block energies of the cell rows above, at
/// and below it in `n0`, `n1`, `n2` (from `x`, 3 columns), the 31 features written to
/// `out[p · planeSize + x]`; the same float operations in the same order as dlib's 4-wide code,
/// one lane per cell. Call only when `cpu_has_avx2_fma()` (CCPUFeatures) is true.
void hog_normalise_row_avx2(const float *hist, const float *n0, const float *n1, const float *n2,
                            long count, float *out, long planeSize);

#endif
