// How much of a libjpeg-turbo decode the rows cost (docs/performance.md, "Measured and not adopted"): decodes the first
// frame of a recording to gray 1,000 times in full, with only rows 160–320 (the rest skipped with
// jpeg_skip_scanlines), and with all but the last 16 rows skipped (entropy decoding alone).
//
//   gcc -O2 Scripts/bench_jpeg_rows.c -o /tmp/bench_jpeg_rows -ljpeg
//   /tmp/bench_jpeg_rows Recordings/blinks-slow-move
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <jpeglib.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void read_rows(struct jpeg_decompress_struct *c, unsigned char *out, JDIMENSION end) {
    while (c->output_scanline < end) {
        JSAMPROW row[1] = { out + (size_t)c->output_scanline * c->output_width };
        jpeg_read_scanlines(c, row, 1);
    }
}

int main(int argc, char **argv) {
    if (argc < 2) { fprintf(stderr, "usage: %s RECORDING\n", argv[0]); return 2; }
    char path[4096];
    snprintf(path, sizeof path, "%s/frames.jsonl", argv[1]);
    FILE *index = fopen(path, "r");
    long length = 0;
    char line[512];
    if (!index || !fgets(line, sizeof line, index) || !strstr(line, "\"length\"")) { fprintf(stderr, "cannot read %s\n", path); return 1; }
    length = strtol(strstr(line, "\"length\"") + 9, NULL, 10);  // the first frame starts at offset 0
    snprintf(path, sizeof path, "%s/frames.mjpeg", argv[1]);
    FILE *frames = fopen(path, "rb");
    unsigned char *jpeg = malloc(length), *out = malloc(4096 * 4096);
    if (!frames || fread(jpeg, 1, length, frames) != (size_t)length) { fprintf(stderr, "cannot read %s\n", path); return 1; }
    const char *names[3] = { "full decode", "rows 160-320 only", "entropy decoding alone" };
    for (int round = 0; round < 3; round++) {
        for (int mode = 0; mode < 3; mode++) {
            const int runs = 1000;
            double start = now();
            for (int i = 0; i < runs; i++) {
                struct jpeg_decompress_struct c;
                struct jpeg_error_mgr e;
                c.err = jpeg_std_error(&e);
                jpeg_create_decompress(&c);
                jpeg_mem_src(&c, jpeg, length);
                jpeg_read_header(&c, TRUE);
                c.out_color_space = JCS_GRAYSCALE;
                jpeg_start_decompress(&c);
                if (mode == 0) {
                    read_rows(&c, out, c.output_height);
                } else if (mode == 1) {
                    jpeg_skip_scanlines(&c, 160);
                    read_rows(&c, out, 320);
                    jpeg_skip_scanlines(&c, c.output_height - c.output_scanline);
                } else {
                    jpeg_skip_scanlines(&c, c.output_height - 16);
                    read_rows(&c, out, c.output_height);
                }
                jpeg_finish_decompress(&c);
                jpeg_destroy_decompress(&c);
            }
            printf("%-24s %.1f us\n", names[mode], (now() - start) / runs * 1e6);
        }
    }
    return 0;
}
