#ifndef CDLIBFORMATKERNELS_H
#define CDLIBFORMATKERNELS_H

#include <stdint.h>

/// Reads dlib-serialized floats of the six-byte form, four at a time with AVX2, and returns how
/// many it read (a multiple of 4, at most `count`). That form is a packed int64 mantissa of three
/// magnitude bytes (control byte 0x03, or 0x83 when negative) and a packed int16 exponent of one
/// byte (0x01 or 0x81); its value is `Float(Double(mantissa) · 2^exponent)`, the product exact
/// and rounded to float to nearest, as `DlibDeserializer.readUsualFloats` computes it. The read
/// stops before the first group of four where a value has another form or is not a finite float,
/// and where fewer than 28 of the `available` bytes remain (each group's second load ends there).
/// Call only when `cpu_has_avx2()` (CCPUFeatures) is true.
long dlib_read_six_byte_floats_avx2(const uint8_t *bytes, long available, float *destination, long count);

#endif
