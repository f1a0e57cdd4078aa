// What the rotated sampler needs and Swift has no spelling for
// (Sources/AdjustKit/Render/InteriorTaps.swift).

#include <stdint.h>

// A software prefetch: the sampler walks the source diagonally, a pattern the hardware
// prefetchers do not follow.
static inline void adjust_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

// Truncation of a double known to lie in [0, 2^63) to an integer, without the range checks of
// Swift's Int(_:) (two compares and branches each, twice a pixel). The caller guarantees the range.
static inline long adjust_truncate(double value) { return (long)value; }

// The top-left taps and bilinear weights of `count` columns of a grid row whose taps all lie
// inside the image: for the column centred at q = centre_x[i], with T⁻¹'s row terms a, cqy, b, dqy
// (RowPositions in GridRowSampling.swift),
//   fx = a·q + cqy − 0.5,  fy = height − (b·q + dqy) − 0.5,  x0 = ⌊fx⌋, y0 = ⌊fy⌋,
//   wx = (float)(fx − x0), wy = (float)(fy − y0),
//   weights[4i…4i+3] = (1−wx)(1−wy), wx(1−wy), (1−wx)wy, wx·wy,
// each operation the one Swift's per-pixel form does, in the same order and precision. The
// caller guarantees 0 ≤ fx, fy < 2³¹, where the truncation is ⌊·⌋.
//
// C because this loop is what the compiler turns into SSE2 (two columns an instruction): its
// conversions are plain casts, where Swift's Int32(_:) traps out of range, a branch that keeps
// the loop scalar; and because Swift's SIMD conversions with a rounding rule went lane by lane,
// four times slower than the scalar loop. Measured in a standalone copy of the straighten's loop
// (docs/benchmark.md, run G): the positions went from about half of its time to a sixth.
static inline void adjust_row_taps(const double *centre_x, long count, double a, double cqy, double b,
                                   double dqy, double height, int32_t *x0, int32_t *y0, float *weights) {
#pragma clang fp contract(off)
    for (long i = 0; i < count; i++) {
        double fx = a * centre_x[i] + cqy - 0.5, fy = height - (b * centre_x[i] + dqy) - 0.5;
        int32_t x = (int32_t)fx, y = (int32_t)fy;
        float wx = (float)(fx - (double)x), wy = (float)(fy - (double)y);
        x0[i] = x;
        y0[i] = y;
        weights[4 * i] = (1 - wx) * (1 - wy);
        weights[4 * i + 1] = wx * (1 - wy);
        weights[4 * i + 2] = (1 - wx) * wy;
        weights[4 * i + 3] = wx * wy;
    }
}
