#include "fw_jpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

/* libjpeg's default error handler calls exit(). This one records the message and
   jumps back to the caller, which turns it into an error return. Warnings (corrupt
   entropy data, premature end of file) are treated as errors too: a damaged frame
   must not come out as a silently wrong picture. */
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char *err;
    size_t err_len;
} fw_error_mgr;

static void fw_error_exit(j_common_ptr cinfo) {
    fw_error_mgr *mgr = (fw_error_mgr *)cinfo->err;
    char buffer[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, buffer);
    if (mgr->err && mgr->err_len > 0) {
        snprintf(mgr->err, mgr->err_len, "%s", buffer);
    }
    longjmp(mgr->jump, 1);
}

static void fw_emit_message(j_common_ptr cinfo, int level) {
    if (level < 0) { /* a warning: the data is damaged */
        fw_error_exit(cinfo);
    }
}

static void fw_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void fw_init_errors(fw_error_mgr *mgr, char *err, size_t err_len) {
    jpeg_std_error(&mgr->base);
    mgr->base.error_exit = fw_error_exit;
    mgr->base.emit_message = fw_emit_message;
    mgr->base.output_message = fw_output_message;
    mgr->err = err;
    mgr->err_len = err_len;
    if (err && err_len > 0) err[0] = 0;
}

static void fw_set_error(char *err, size_t err_len, const char *message) {
    if (err && err_len > 0) snprintf(err, err_len, "%s", message);
}

static int fw_jpeg_decode_to(const uint8_t *data, size_t len, fw_jpeg_mode mode,
                             uint8_t *out, size_t out_len, uint8_t *scratch, size_t scratch_len,
                             int *width_out, int *height_out, char *err, size_t err_len);

int fw_jpeg_header(const uint8_t *data, size_t len, int *width, int *height,
                   char *err, size_t err_len) {
    return fw_jpeg_decode_to(data, len, FW_JPEG_LUMA, NULL, 0, NULL, 0, width, height, err, err_len);
}

int fw_jpeg_decode(const uint8_t *data, size_t len, fw_jpeg_mode mode,
                   uint8_t *out, size_t out_len, uint8_t *scratch, size_t scratch_len,
                   char *err, size_t err_len) {
    int width, height;
    return fw_jpeg_decode_to(data, len, mode, out, out_len, scratch, scratch_len, &width, &height, err, err_len);
}

/* Reads the header (reporting the size) and, when `out` is given, decodes the pixels. */
static int fw_jpeg_decode_to(const uint8_t *data, size_t len, fw_jpeg_mode mode,
                             uint8_t *out, size_t out_len, uint8_t *scratch, size_t scratch_len,
                             int *width_out, int *height_out, char *err, size_t err_len) {
    struct jpeg_decompress_struct cinfo;
    fw_error_mgr mgr;
    if (data == NULL || len < 4) {
        fw_set_error(err, err_len, "not a JPEG: too short");
        return 1;
    }
    fw_init_errors(&mgr, err, err_len);
    cinfo.err = &mgr.base;
    jpeg_create_decompress(&cinfo);
    if (setjmp(mgr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    jpeg_mem_src(&cinfo, data, (unsigned long)len);
    jpeg_read_header(&cinfo, TRUE);
    *width_out = (int)cinfo.image_width;
    *height_out = (int)cinfo.image_height;
    if (out == NULL) {
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    int gray_source = cinfo.num_components == 1;
    cinfo.out_color_space = (mode == FW_JPEG_LUMA || gray_source) ? JCS_GRAYSCALE : JCS_RGB;
    if (mode == FW_JPEG_RGB) cinfo.out_color_space = JCS_RGB;
    jpeg_start_decompress(&cinfo);

    const size_t width = cinfo.output_width;
    const size_t height = cinfo.output_height;
    const size_t out_components = (mode == FW_JPEG_RGB) ? 3 : 1;
    if (out_len < width * height * out_components) {
        fw_set_error(err, err_len, "output buffer too small");
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    const int mean_from_rgb = (mode == FW_JPEG_RGB_MEAN && cinfo.out_color_space == JCS_RGB);
    if (mean_from_rgb && (scratch == NULL || scratch_len < 3 * width)) {
        fw_set_error(err, err_len, "scratch buffer too small");
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        uint8_t *row = out + (size_t)cinfo.output_scanline * width * out_components;
        if (mean_from_rgb) {
            JSAMPROW rows[1] = { scratch };
            jpeg_read_scanlines(&cinfo, rows, 1);
            for (size_t x = 0; x < width; x++) {
                const unsigned sum = (unsigned)scratch[3 * x] + scratch[3 * x + 1] + scratch[3 * x + 2];
                row[x] = (uint8_t)(sum / 3);
            }
        } else {
            JSAMPROW rows[1] = { row };
            jpeg_read_scanlines(&cinfo, rows, 1);
        }
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int fw_jpeg_decode_luma_region(const uint8_t *data, size_t len, uint8_t *out, int width, int height,
                               int *x0, int *y0, int *x1, int *y1, char *err, size_t err_len) {
    struct jpeg_decompress_struct cinfo;
    fw_error_mgr mgr;
    if (data == NULL || len < 4) {
        fw_set_error(err, err_len, "not a JPEG: too short");
        return 1;
    }
    fw_init_errors(&mgr, err, err_len);
    cinfo.err = &mgr.base;
    jpeg_create_decompress(&cinfo);
    if (setjmp(mgr.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    jpeg_mem_src(&cinfo, data, (unsigned long)len);
    jpeg_read_header(&cinfo, TRUE);
    if ((int)cinfo.image_width != width || (int)cinfo.image_height != height || out == NULL) {
        fw_set_error(err, err_len, "frame size differs from the image's");
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    cinfo.out_color_space = JCS_GRAYSCALE;
    jpeg_start_decompress(&cinfo);
    int left = *x0 < 0 ? 0 : *x0, right = *x1 > width ? width : *x1;
    int top = *y0 < 0 ? 0 : *y0, bottom = *y1 > height ? height : *y1;
    if (right <= left || bottom <= top) {
        *x0 = *x1 = *y0 = *y1 = 0;
        jpeg_abort_decompress(&cinfo);
        jpeg_destroy_decompress(&cinfo);
        return 0;
    }
    JDIMENSION crop_x = (JDIMENSION)left, crop_width = (JDIMENSION)(right - left);
    if (crop_x > 0 || crop_width < (JDIMENSION)width) {
        jpeg_crop_scanline(&cinfo, &crop_x, &crop_width);
    }
    if (top > 0) {
        jpeg_skip_scanlines(&cinfo, (JDIMENSION)top);
    }
    while ((int)cinfo.output_scanline < bottom) {
        JSAMPROW rows[1] = { out + (size_t)cinfo.output_scanline * (size_t)width + crop_x };
        jpeg_read_scanlines(&cinfo, rows, 1);
    }
    *x0 = (int)crop_x;
    *x1 = (int)(crop_x + crop_width);
    *y0 = top;
    *y1 = bottom;
    jpeg_abort_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int fw_jpeg_encode(const uint8_t *pixels, int width, int height, int components, int quality,
                   uint8_t **out, size_t *out_len, char *err, size_t err_len) {
    struct jpeg_compress_struct cinfo;
    fw_error_mgr mgr;
    unsigned char *buffer = NULL;
    unsigned long size = 0;
    if (components != 1 && components != 3) {
        fw_set_error(err, err_len, "components must be 1 or 3");
        return 1;
    }
    if (width <= 0 || height <= 0) {
        fw_set_error(err, err_len, "empty image");
        return 1;
    }
    fw_init_errors(&mgr, err, err_len);
    cinfo.err = &mgr.base;
    jpeg_create_compress(&cinfo);
    if (setjmp(mgr.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return 1;
    }
    jpeg_mem_dest(&cinfo, &buffer, &size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    jpeg_start_compress(&cinfo, TRUE);
    const size_t stride = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[1] = { (JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride) };
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_len = size;
    return 0;
}

void fw_jpeg_free(uint8_t *buffer) { free(buffer); }
