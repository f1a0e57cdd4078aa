// Two instructions the rotated sampler needs and Swift has no spelling for
// (Sources/AdjustKit/Render/InteriorTaps.swift).

// A software prefetch: the sampler walks the source diagonally, a pattern the hardware
// prefetchers do not follow.
static inline void adjust_prefetch(const void *address) { __builtin_prefetch(address, 0, 3); }

// Truncation of a double known to lie in [0, 2^63) to an integer, without the range checks of
// Swift's Int(_:) (two compares and branches each, twice a pixel). The caller guarantees the range.
static inline long adjust_truncate(double value) { return (long)value; }
