#ifndef FW_BLAS_H
#define FW_BLAS_H

/// Loads OpenBLAS (`libopenblas.so.0`) the first time it is called, limited to one thread, and
/// returns 0; -1 when it cannot be loaded (`fw_blas_error` says why). OpenBLAS is opened at run
/// time, not linked: linked, its constructor starts a worker thread in every facewatch process
/// that spins for about 0.1 s of CPU at start-up, though only the face descriptor network uses it.
/// OPENBLAS_NUM_THREADS is set to 1 before the library is opened unless the user set it.
int fw_blas_load(void);

/// Why `fw_blas_load` failed (dlerror's text), or an empty string.
const char *fw_blas_error(void);

/// Row-major single-precision C = A·B + beta·C with A (m×k) and B (k×n), through OpenBLAS's
/// cblas_sgemm. Leading dimensions are the row lengths (k, n, n). Only after `fw_blas_load`
/// returned 0.
void fw_sgemm(int m, int n, int k, const float *a, const float *b, float beta, float *c);

#endif
