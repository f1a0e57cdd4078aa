// Stops a binary built for SSE4.2 on a processor without it, with one line instead of an
// illegal instruction somewhere in the first render.
//
// Why C and a constructor: `scripts/build-release` compiles the Swift code for Nehalem
// (`-target-cpu nehalem`, measured 3-5 % less CPU on the Smart and portrait rows:
// docs/benchmark.md, "Issue 30, nineteenth part"), so any Swift function may hold an SSE4
// instruction, the first of `main` included. This file is compiled for the baseline x86-64 (the
// script passes the CPU to the Swift compiler alone) and runs before `main`. Only that build
// defines ADJUST_REQUIRES_SSE4_2; every other build (`swift build`, the tests, other
// architectures) compiles this file to nothing.
#if defined(ADJUST_REQUIRES_SSE4_2) && defined(__x86_64__)
#include <cpuid.h>
#include <unistd.h>

// Nehalem's additions to x86-64, which `-target-cpu nehalem` may use: SSE3, SSSE3, SSE4.1,
// SSE4.2, POPCNT and CMPXCHG16B (CPUID leaf 1, ECX).
static int has_nehalem_features(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int needed = bit_SSE3 | bit_SSSE3 | bit_SSE4_1 | bit_SSE4_2 | bit_POPCNT | bit_CMPXCHG16B;
    return (ecx & needed) == needed;
}

__attribute__((constructor))
static void adjust_require_nehalem(void) {
    if (has_nehalem_features()) return;
    static const char message[] =
        "adjust: error: this binary needs an x86-64 processor with SSE4.2 "
        "(Intel Nehalem, AMD Bulldozer or later); "
        "build one for this processor with ADJUST_PORTABLE=1 scripts/build-release\n";
    (void)!write(2, message, sizeof message - 1);
    _exit(69);   // EX_UNAVAILABLE, as for a HEIC that needs a newer libheif
}
#endif
