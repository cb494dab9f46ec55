// The one runtime check behind every C kernel target's AVX2 code: the kernels are compiled for
// the x86-64 baseline with AVX2 only inside functions that carry a target attribute, and their
// Swift callers take those paths only when these say the CPU has the instructions.
#include "CCPUFeatures.h"

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))

bool cpu_has_avx2(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2");
}

bool cpu_has_avx2_fma(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
}

#else

bool cpu_has_avx2(void) { return false; }

bool cpu_has_avx2_fma(void) { return false; }

#endif
