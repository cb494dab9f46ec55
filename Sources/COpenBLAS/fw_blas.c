#include "fw_blas.h"
#include <cblas.h>

void openblas_set_num_threads(int num_threads);

void fw_sgemm(int m, int n, int k, const float *a, const float *b, float beta, float *c) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, beta, c, n);
}

void fw_blas_set_threads(int threads) {
    openblas_set_num_threads(threads);
}
