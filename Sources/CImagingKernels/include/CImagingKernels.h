#ifndef CIMAGINGKERNELS_H
#define CIMAGINGKERNELS_H

#include <stdbool.h>
#include <stdint.h>

/// `GrayImage.resample`'s bilinear grid, 4 output pixels at a time with AVX2, in the same double
/// operations as the Swift loop, so every pixel is the same: output pixel (column, row) samples
/// the source at `sx = ((centerX + c·u) − s·v) − 0.5`, `sy = ((centerY + s·u) + c·v) − 0.5`, with
/// `u = (column + 0.5) − width/2` and `v = (row + 0.5) − height/2`, clamped to the image, and is
/// `(top·(1 − fy) + bottom·fy) + 0.5` truncated, `top` and `bottom` the rows' `a·(1 − fx) + b·fx`.
/// `source` is `sourceWidth × sourceHeight` (both > 0), `out` is `width × height`. Call only when
/// `cpu_has_avx2()` (CCPUFeatures) is true.
void imaging_resample_avx2(const uint8_t *source, long sourceWidth, long sourceHeight, double centerX,
                           double centerY, double c, double s, uint8_t *out, long width, long height);

#endif
