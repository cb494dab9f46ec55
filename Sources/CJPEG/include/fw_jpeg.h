#ifndef FW_JPEG_H
#define FW_JPEG_H

#include <stddef.h>
#include <stdint.h>

/// How the decoder produces its 8-bit output.
typedef enum {
    /// Luma only (JPEG's Y plane): chroma is entropy-decoded but never transformed.
    FW_JPEG_LUMA = 0,
    /// (R + G + B) / 3 with integer division, as dlib converts RGB to gray.
    FW_JPEG_RGB_MEAN = 1,
    /// Interleaved RGB, 3 bytes per pixel.
    FW_JPEG_RGB = 2
} fw_jpeg_mode;

/// Reads the frame size of a JPEG without decoding it. Returns 0 on success; otherwise
/// non-zero with a message in `err` (NUL-terminated, at most `err_len` bytes).
int fw_jpeg_header(const uint8_t *data, size_t len, int *width, int *height,
                   char *err, size_t err_len);

/// Decodes a complete JPEG into `out` (`width*height` bytes for gray modes, 3x that for RGB).
/// `out_len` must be at least that size. Any libjpeg error or warning (corrupt or truncated
/// data) aborts the decode and returns non-zero with a message; the process is never exited.
/// `scratch` must hold at least `3*width` bytes for the RGB_MEAN mode (may be NULL otherwise).
int fw_jpeg_decode(const uint8_t *data, size_t len, fw_jpeg_mode mode,
                   uint8_t *out, size_t out_len, uint8_t *scratch, size_t scratch_len,
                   char *err, size_t err_len);

/// Decodes only the luma pixels of rows [`*y0`, `*y1`) and columns [`*x0`, `*x1`) of a JPEG into
/// `out`, a `width*height` gray image of the JPEG's size (`width`, `height` must match its
/// header); pixels outside the region are left as they were. The region is widened to the
/// decoder's block grid (columns to its iMCU width, as `jpeg_crop_scanline` does) and clipped to
/// the image, and the region actually written is returned in the four pointers. Rows above it
/// are entropy-decoded and skipped (`jpeg_skip_scanlines`), rows below it not read at all. The
/// pixels written are those of a full `FW_JPEG_LUMA` decode, bit for bit. Errors as
/// `fw_jpeg_decode`, except that damage below the region goes unnoticed.
int fw_jpeg_decode_luma_region(const uint8_t *data, size_t len, uint8_t *out, int width, int height,
                               int *x0, int *y0, int *x1, int *y1, char *err, size_t err_len);

/// Encodes 8-bit gray (components == 1) or RGB (components == 3) pixels as a baseline JPEG.
/// On success returns 0 and a malloc'd buffer in `*out` (free it with `fw_jpeg_free`).
int fw_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                   uint8_t **out, size_t *out_len, char *err, size_t err_len);

/// Frees a buffer returned by `fw_jpeg_encode`.
void fw_jpeg_free(uint8_t *buffer);

#endif
