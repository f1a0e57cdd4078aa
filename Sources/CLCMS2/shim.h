#include <lcms2.h>

/* lcms2's pixel-format macros are function-like, which Swift does not import. */
static const cmsUInt32Number adjust_lcms_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number adjust_lcms_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;
static const cmsUInt32Number adjust_lcms_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number adjust_lcms_TYPE_RGBA_8 = TYPE_RGBA_8;
