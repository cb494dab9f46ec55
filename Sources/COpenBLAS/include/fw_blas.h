#ifndef FW_BLAS_H
#define FW_BLAS_H

/// Row-major single-precision C = A·B + beta·C with A (m×k) and B (k×n), through OpenBLAS's
/// cblas_sgemm. Leading dimensions are the row lengths (k, n, n).
void fw_sgemm(int m, int n, int k, const float *a, const float *b, float beta, float *c);

/// Limits OpenBLAS to `threads` threads (the descriptor runs on one core).
void fw_blas_set_threads(int threads);

#endif
