#ifndef CCPUFEATURES_H
#define CCPUFEATURES_H

#include <stdbool.h>

/// True when the CPU runs AVX2: the kernels of `CImagingKernels`, `CLandmarkKernels` and
/// `CDlibFormatKernels` may be called. False on other architectures.
bool cpu_has_avx2(void);

/// True when the CPU runs AVX2 and FMA: the kernels of `CHOGKernels` may be called. False on
/// other architectures.
bool cpu_has_avx2_fma(void);

#endif
