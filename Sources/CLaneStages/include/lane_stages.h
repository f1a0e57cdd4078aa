#ifndef ADJUST_LANE_STAGES_H
#define ADJUST_LANE_STAGES_H

// SmartTone's stages whose square roots bind them (Sources/AdjustKit/Filters/SmartToneStages.swift
// says which and why they are here): each on `count` pixels of a chunk's three planes, `count` a
// multiple of 4, in place. Each stage clamps every channel to [0, 1], applies itself and adds
// what the clamp took off back, as SmartToneModel.run does for the stages written in Swift.
// The maps' planes b0 and b1 hold one value a pixel.

#ifdef __cplusplus
extern "C" {
#endif

void adjust_local_light(float *r, float *g, float *b, const float *b0, const float *b1, long count,
                        float localLight);
void adjust_shadow_lift(float *r, float *g, float *b, const float *b0, long count, float smartShadows);
void adjust_high_key(float *r, float *g, float *b, long count, float brightness);
void adjust_contrast(float *r, float *g, float *b, long count, float contrast);

// For tests: 1 runs every stage's 4-wide code even where AVX2 is present, 0 lets each call choose.
void adjust_lane_stages_force_baseline(int on);
// Whether the stages run 8 pixels at a time with AVX2 on this processor.
int adjust_lane_stages_use_avx2(void);

#ifdef __cplusplus
}
#endif

#endif
