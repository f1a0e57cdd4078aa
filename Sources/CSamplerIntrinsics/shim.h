// What the rotated sampler needs and Swift has no spelling for, or compiles to a slower loop
// (Sources/AdjustKit/Render/InteriorTaps.swift, TexelReader.swift).

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

// Four floats as one vector (clang's and GCC's vector extension: SSE on x86-64, NEON on arm64).
typedef float adjust_float4 __attribute__((vector_size(16)));

// A decoded byte texel's working colour through the 256-entry decode table, its fourth lane 0
// (ByteTexels.working).
static inline adjust_float4 adjust_byte_texel(const uint8_t *p, const float *decode) {
    return (adjust_float4){decode[p[0]], decode[p[1]], decode[p[2]], 0.0f};
}

// ByteQuantizer.Bound.code(unitBlend:) of a value in [+0, 2): the code at the lowest Float of its
// bucket (the Floats sharing their top 16 bits), plus one where the value has reached the one
// threshold the bucket may hold.
static inline uint32_t adjust_code_unit_blend(float value, const uint8_t *bucket_start, const float *thresholds) {
    uint32_t bits;
    __builtin_memcpy(&bits, &value, 4);
    uint32_t code = bucket_start[bits >> 16];
    return code + (value >= thresholds[code + 1]);
}

// The opaque pixels of one block of a row's interior run straight to RGBA8 (InteriorTaps.swift,
// `writeOpaqueBytes`): pixel k's top-left tap (x0[k], y0[k]) and weights (weights[4k…4k+3]) as
// adjust_row_taps laid them out; row v of the window at row_starts[v − top], its texels
// bytes from column `left`; each sum coded by the quantizer's tables; alpha 255. Each pixel is
// the four taps' weighted sum in OutputRowSampler.weightedSum's order,
//   ((w00·c00 + w10·c10) + w01·c01) + w11·c11,
// lane by lane, without contraction: InteriorTaps.sample's bits. The left taps are the previous
// pixel's right taps whenever the walk moved one texel right on the same rows.
//
// C because the Swift form of this loop (InteriorTaps.sample, then OpaqueByteRow.write), its taps
// kept in SIMD4<Float>, compiled to two lanes and a scalar third, with the kept taps, the row
// pointers and the decode table spilled to the stack and reloaded every pixel; here the taps stay
// in four-lane registers: a straighten's sampling 3.9 ms of CPU less, its render 0.95 of the time
// (docs/benchmark.md, twenty-first part).
static inline void adjust_opaque_byte_block(const int32_t *x0, const int32_t *y0, const float *weights, long count,
                                            uint8_t *_Nonnull const *_Nonnull row_starts, long top, long left,
                                            const float *decode, const uint8_t *bucket_start, const float *thresholds,
                                            uint8_t *out) {
#pragma clang fp contract(off)
    long row_y = -1, last_x = -2;
    const uint8_t *row0 = 0, *row1 = 0;
    adjust_float4 right0 = {0, 0, 0, 0}, right1 = {0, 0, 0, 0};
    for (long k = 0; k < count; k++) {
        long x = x0[k], y = y0[k];
        if (y != row_y) {
            row0 = row_starts[y - top];
            row1 = row_starts[y + 1 - top];
            row_y = y;
            last_x = -2;
        }
        const uint8_t *p0 = row0 + (x - left) * 3, *p1 = row1 + (x - left) * 3;
        adjust_float4 c00, c01;
        if (x == last_x + 1) {
            c00 = right0;
            c01 = right1;
        } else {
            c00 = adjust_byte_texel(p0, decode);
            c01 = adjust_byte_texel(p1, decode);
        }
        right0 = adjust_byte_texel(p0 + 3, decode);
        right1 = adjust_byte_texel(p1 + 3, decode);
        last_x = x;
        const float *w = weights + 4 * k;
        adjust_float4 sum = w[0] * c00 + w[1] * right0 + w[2] * c01 + w[3] * right1;
        uint32_t r = adjust_code_unit_blend(sum[0], bucket_start, thresholds);
        uint32_t g = adjust_code_unit_blend(sum[1], bucket_start, thresholds);
        uint32_t b = adjust_code_unit_blend(sum[2], bucket_start, thresholds);
        uint32_t pixel = r | g << 8 | b << 16 | 0xffu << 24;
        __builtin_memcpy(out + 4 * k, &pixel, 4);
    }
}
