// The stages' arithmetic, included twice by lane_stages.c: once for AVX2, eight pixels a vector,
// once for the baseline (SSE), four, with V the vector of STAGE_LANES floats, M its mask and each
// function's name ending in STAGE_SUFFIX. Each lane's operations are the same IEEE operations in
// the same order either way (no fused multiply-add: lane_stages.c turns contraction off), so both
// give the bits SmartToneStages.swift's forms in Swift gave.

#define STAGE_NAME2(name, suffix) name##suffix
#define STAGE_NAME1(name, suffix) STAGE_NAME2(name, suffix)
#define STAGE(name) STAGE_NAME1(name, STAGE_SUFFIX)

static inline V STAGE(load)(const float *p) { V v; memcpy(&v, p, sizeof v); return v; }
static inline void STAGE(store)(float *p, V v) { memcpy(p, &v, sizeof v); }
// A last four values in each quarter of a vector, and the first quarter stored.
static inline V STAGE(load4)(const float *p) {
    V v;
    for (int k = 0; k < STAGE_LANES; k += 4) memcpy((float *)&v + k, p, 4 * sizeof(float));
    return v;
}
static inline void STAGE(store4)(float *p, V v) { memcpy(p, &v, 4 * sizeof(float)); }

// Swift's Lanes.minimum / maximum (Lanes.swift): a select, b where b < a (b > a), else a.
static inline V STAGE(vmin)(V a, V b) { return b < a ? b : a; }
static inline V STAGE(vmax)(V a, V b) { return b > a ? b : a; }
static inline V STAGE(clamp)(V x, float low, float high) {
    return STAGE(vmin)(STAGE(vmax)(x, (V)low), (V)high);
}
static inline V STAGE(sqrt8)(V x) { return __builtin_elementwise_sqrt(x); }

// SmartToneModel.localOut
static inline V STAGE(local_out)(V q, V own, V shared) {
    V n = STAGE(vmax)(q * own + shared, (V)0.0f);
    return STAGE(clamp)(n * n, 0.0f, 1.0f);
}

// SmartToneModel.shadowLift
static inline V STAGE(lift)(V x, V gain) {
    V q = STAGE(sqrt8)(x);
    V w = STAGE(clamp)(1.0f - q * 2.5f, 0.0f, 1.0f);
    V n = STAGE(clamp)(q + gain * w * w * q, 0.0f, 1.0f);
    return n * n;
}

// SmartToneModel.key
static inline V STAGE(key)(V x, V scale, V pull, V weight, M black) {
    V a = STAGE(sqrt8)(STAGE(vmax)((V)0.0f, 1.0f - (x - 1.0f) * (x - 1.0f)));
    V s = x * scale;
    V out = x + weight * (s + pull * (a - s) - x);
    return black ? x : out;
}

// SmartToneModel.contrastOut
static inline V STAGE(contrast_out)(V q, V w, V lumaPush, V mix) {
    V a = q + w * (q - 0.5f), p = q + lumaPush;
    V n = STAGE(vmax)(a + mix * (p - a), (V)0.0f);
    return n * n;
}

// One stage on a vector of each plane (the values clamped, the stage, the rest added back).

// §7.5 (docs/spec/modern-colour.md): y from the stage's input; the map's curve, then a local
// contrast about P = max(b1, ½) in the square-root domain, its luma part mixed in at 0.8.
static inline void STAGE(local_light_v)(V *r, V *g, V *b, V b0, V b1, float localLight) {
    V cr = STAGE(clamp)(*r, 0.0f, 1.0f), cg = STAGE(clamp)(*g, 0.0f, 1.0f), cb = STAGE(clamp)(*b, 0.0f, 1.0f);
    V restR = *r - cr, restG = *g - cg, restB = *b - cb;
    V v = 3.4f * b0 - 1.2f;
    V y = STAGE(sqrt8)((cr + cg + cb) * (1.0f / 3.0f));
    V s = localLight * v;
    M positive = s > 0.0f;
    V k = STAGE(clamp)(s * (positive ? (V)1.5f : (V)1.75f), -1.0f, 1.0f);
    V kb = STAGE(clamp)(s * (positive ? (V)1.5f : (V)1.55f), -1.0f, 1.0f);
    V qr = STAGE(sqrt8)(STAGE(clamp)(cr - k * cr * (1.0f - cr), 0.0f, 1.0f));
    V qg = STAGE(sqrt8)(STAGE(clamp)(cg - k * cg * (1.0f - cg), 0.0f, 1.0f));
    V qb = STAGE(sqrt8)(STAGE(clamp)(cb - kb * cb * (1.0f - cb), 0.0f, 1.0f));
    V a = (0.5f < localLight ? 0.5f : localLight) * y * (1.0f - y);   // Swift's min(localLight, 0.5)
    V pivot = STAGE(vmax)(b1, (V)0.5f);
    V shared = 0.8f * a * (0.299f * qr + 0.587f * qg + 0.114f * qb - pivot) - 0.2f * a * pivot;
    V own = 1.0f + 0.2f * a;
    *r = STAGE(local_out)(qr, own, shared) + restR;
    *g = STAGE(local_out)(qg, own, shared) + restG;
    *b = STAGE(local_out)(qb, own, shared) + restB;
}

// §7.1: the map-guided lift of the shadows.
static inline void STAGE(shadow_lift_v)(V *r, V *g, V *b, V b0, float smartShadows) {
    V cr = STAGE(clamp)(*r, 0.0f, 1.0f), cg = STAGE(clamp)(*g, 0.0f, 1.0f), cb = STAGE(clamp)(*b, 0.0f, 1.0f);
    V restR = *r - cr, restG = *g - cg, restB = *b - cb;
    V v = 3.4f * b0 - 1.2f;
    V d = v >= 0.0f ? (V)0.0f : v * v;
    V gainRG = smartShadows * (2.75f * d + 0.1f), gainB = smartShadows * (2.5f * d + 0.1f);
    *r = STAGE(lift)(cr, gainRG) + restR;
    *g = STAGE(lift)(cg, gainRG) + restG;
    *b = STAGE(lift)(cb, gainB) + restB;
}

// §7.2: toward the circle √(1 − (x − 1)²), each channel scaled with the pixel's mean, by √m
// (near-black pixels stay where they are).
static inline void STAGE(high_key_v)(V *r, V *g, V *b, float brightness) {
    V cr = STAGE(clamp)(*r, 0.0f, 1.0f), cg = STAGE(clamp)(*g, 0.0f, 1.0f), cb = STAGE(clamp)(*b, 0.0f, 1.0f);
    V restR = *r - cr, restG = *g - cg, restB = *b - cb;
    V m = (cr + cg + cb) * (1.0f / 3.0f);
    M black = m <= 0.0f;
    V u = STAGE(sqrt8)(STAGE(vmax)((V)0.0f, 1.0f - (m - 1.0f) * (m - 1.0f)));
    V lifted = 0.5f * u + 0.5f * u * u * (3.0f - 2.0f * u);
    V scale = lifted / m, pull = 0.7f * STAGE(sqrt8)(lifted), weight = brightness * STAGE(sqrt8)(m);
    *r = STAGE(key)(cr, scale, pull, weight, black) + restR;
    *g = STAGE(key)(cg, scale, pull, weight, black) + restG;
    *b = STAGE(key)(cb, scale, pull, weight, black) + restB;
}

// §7.4: an S-curve in the square-root domain about ½, driven per channel (A) and by the luma (P),
// the two mixed by 0.8 + σ (σ the pixel's spread about y).
static inline void STAGE(contrast_v)(V *r, V *g, V *b, float contrast) {
    V cr = STAGE(clamp)(*r, 0.0f, 1.0f), cg = STAGE(clamp)(*g, 0.0f, 1.0f), cb = STAGE(clamp)(*b, 0.0f, 1.0f);
    V restR = *r - cr, restG = *g - cg, restB = *b - cb;
    V y = STAGE(sqrt8)((cr + cg + cb) * (1.0f / 3.0f)), w = contrast * y * (1.0f - y);
    V qr = STAGE(sqrt8)(cr), qg = STAGE(sqrt8)(cg), qb = STAGE(sqrt8)(cb);
    V spread = (cr - y) * (cr - y) + (cg - y) * (cg - y) + (cb - y) * (cb - y);
    V lumaPush = w * (qr * 0.299f + qg * 0.587f + qb * 0.114f - 0.5f);
    V mix = 0.8f + spread;
    *r = STAGE(contrast_out)(qr, w, lumaPush, mix) + restR;
    *g = STAGE(contrast_out)(qg, w, lumaPush, mix) + restG;
    *b = STAGE(contrast_out)(qb, w, lumaPush, mix) + restB;
}

// The loops: a vector of pixels at a time; a last four (count is a multiple of 4) through a vector
// each quarter of which repeats them, their results alone written back.
#define STAGE_LOOP(name, call)                                                                  \
    static void STAGE(name)(float *rp, float *gp, float *bp, const float *b0p, const float *b1p, \
                            long count, float parameter) {                                      \
        long i = 0;                                                                             \
        for (; i + STAGE_LANES <= count; i += STAGE_LANES) {                                                        \
            V r = STAGE(load)(rp + i), g = STAGE(load)(gp + i), b = STAGE(load)(bp + i);                         \
            V b0 = b0p ? STAGE(load)(b0p + i) : (V)0.0f, b1 = b1p ? STAGE(load)(b1p + i) : (V)0.0f;      \
            (void)b0; (void)b1;                                                                 \
            call;                                                                               \
            STAGE(store)(rp + i, r); STAGE(store)(gp + i, g); STAGE(store)(bp + i, b);                            \
        }                                                                                       \
        if (i < count) {                                                                        \
            V r = STAGE(load4)(rp + i), g = STAGE(load4)(gp + i), b = STAGE(load4)(bp + i);                   \
            V b0 = b0p ? STAGE(load4)(b0p + i) : (V)0.0f, b1 = b1p ? STAGE(load4)(b1p + i) : (V)0.0f;  \
            (void)b0; (void)b1;                                                                 \
            call;                                                                               \
            STAGE(store4)(rp + i, r); STAGE(store4)(gp + i, g); STAGE(store4)(bp + i, b);                            \
        }                                                                                       \
    }

STAGE_LOOP(local_light, STAGE(local_light_v)(&r, &g, &b, b0, b1, parameter))
STAGE_LOOP(shadow_lift, STAGE(shadow_lift_v)(&r, &g, &b, b0, parameter))
STAGE_LOOP(high_key, STAGE(high_key_v)(&r, &g, &b, parameter))
STAGE_LOOP(contrast, STAGE(contrast_v)(&r, &g, &b, parameter))

#undef STAGE_LOOP
