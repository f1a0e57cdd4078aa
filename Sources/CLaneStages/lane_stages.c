// SmartTone's square-root-bound stages, eight pixels a vector, run with AVX2 where the processor
// has it and with the baseline's SSE otherwise (the same bits: lane_stages_body.h).
//
// Why C: a SmartTone render's stages wait on the square-root unit (14 square roots and a division
// a group of four pixels in a SmartTone HEIC's chain), which took as long for eight lanes as for
// four on the benchmarks' processor, a Zen 4 (vsqrtps ymm against sqrtps xmm, a C
// microbenchmark: docs/benchmark.md, twenty-fourth part). Swift cannot compile one function for a second
// instruction set and choose at run time, and the shipped binary is built for Nehalem, which has
// no AVX; clang's target attribute does both.

// Each lane's multiplies and adds rounded one by one, as Swift's are: no fused multiply-add.
#pragma clang fp contract(off)

#include <stdatomic.h>
#include <string.h>
#include "lane_stages.h"

typedef float f8 __attribute__((ext_vector_type(8)));
typedef int i8 __attribute__((ext_vector_type(8)));
typedef float f4 __attribute__((ext_vector_type(4)));
typedef int i4 __attribute__((ext_vector_type(4)));

#pragma clang attribute push (__attribute__((target("avx2"))), apply_to = function)
#define V f8
#define M i8
#define STAGE_LANES 8
#define STAGE_SUFFIX _avx2
#include "lane_stages_body.h"
#undef V
#undef M
#undef STAGE_LANES
#undef STAGE_SUFFIX
#pragma clang attribute pop

// Four pixels a vector: eight as two halves left the baseline's 16 registers too few (the stages
// spilled, and a Tone + Color + B&W render took 1.03× the Swift stages' time). With SSE4.1's
// blends where the binary is built for SSE4.2 (scripts/build-release), as the Swift code is.
#ifdef ADJUST_REQUIRES_SSE4_2
#pragma clang attribute push (__attribute__((target("sse4.2"))), apply_to = function)
#endif
#define V f4
#define M i4
#define STAGE_LANES 4
#define STAGE_SUFFIX _baseline
#include "lane_stages_body.h"
#undef V
#undef M
#undef STAGE_LANES
#undef STAGE_SUFFIX
#ifdef ADJUST_REQUIRES_SSE4_2
#pragma clang attribute pop
#endif

// -1 until the first call asks the processor; then 1 where AVX2 runs, 0 otherwise.
static atomic_int avx2 = -1;
static atomic_int forceBaseline = 0;

int adjust_lane_stages_use_avx2(void) {
    int known = atomic_load_explicit(&avx2, memory_order_relaxed);
    if (known < 0) {
        __builtin_cpu_init();
        known = __builtin_cpu_supports("avx2") ? 1 : 0;
        atomic_store_explicit(&avx2, known, memory_order_relaxed);
    }
    return known;
}

void adjust_lane_stages_force_baseline(int on) { atomic_store_explicit(&forceBaseline, on ? 1 : 0, memory_order_relaxed); }

static inline int wide(void) {
    return adjust_lane_stages_use_avx2() && !atomic_load_explicit(&forceBaseline, memory_order_relaxed);
}

void adjust_local_light(float *r, float *g, float *b, const float *b0, const float *b1, long count, float localLight) {
    if (wide()) local_light_avx2(r, g, b, b0, b1, count, localLight);
    else local_light_baseline(r, g, b, b0, b1, count, localLight);
}

void adjust_shadow_lift(float *r, float *g, float *b, const float *b0, long count, float smartShadows) {
    if (wide()) shadow_lift_avx2(r, g, b, b0, 0, count, smartShadows);
    else shadow_lift_baseline(r, g, b, b0, 0, count, smartShadows);
}

void adjust_high_key(float *r, float *g, float *b, long count, float brightness) {
    if (wide()) high_key_avx2(r, g, b, 0, 0, count, brightness);
    else high_key_baseline(r, g, b, 0, 0, count, brightness);
}

void adjust_contrast(float *r, float *g, float *b, long count, float contrast) {
    if (wide()) contrast_avx2(r, g, b, 0, 0, count, contrast);
    else contrast_baseline(r, g, b, 0, 0, count, contrast);
}
