#include "fw_blas.h"
#include <cblas.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static pthread_once_t once = PTHREAD_ONCE_INIT;
static __typeof__(cblas_sgemm) *sgemm;
static char failure[512];

static void load(void) {
    setenv("OPENBLAS_NUM_THREADS", "1", 0);
    void *library = dlopen("libopenblas.so.0", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
    sgemm = (__typeof__(cblas_sgemm) *)dlsym(library, "cblas_sgemm");
    if (sgemm == NULL) snprintf(failure, sizeof failure, "libopenblas.so.0 has no cblas_sgemm: %s", dlerror());
}

int fw_blas_load(void) {
    pthread_once(&once, load);
    return sgemm != NULL ? 0 : -1;
}

const char *fw_blas_error(void) {
    return failure;
}

void fw_sgemm(int m, int n, int k, const float *a, const float *b, float beta, float *c) {
    sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, m, n, k, 1.0f, a, k, b, n, beta, c, n);
}
