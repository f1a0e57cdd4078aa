#include <zlib.h>

// zlib's inflateInit2/deflateInit2 are function-like macros (they pass ZLIB_VERSION and the
// struct size), which Swift cannot call; these wrappers fix the one use each has here: raw
// DEFLATE, window bits -15, as in Apple's AAE adjustmentData.
static inline int czlib_inflate_init_raw(z_stream *stream) {
    return inflateInit2(stream, -15);
}

static inline int czlib_deflate_init_raw(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
}
