#ifndef ADJUST_HEIF_LOADER_H
#define ADJUST_HEIF_LOADER_H

// libheif, loaded when the first HEIC is read rather than when the program starts.
//
// Linking libheif makes the dynamic loader map it and its codecs (libde265, libx265, libaom,
// libdav1d) and run their initialisers in every process, about 6 ms before main on the project's
// machines: most of a JPEG render's start-up (docs/benchmark.md). `adjust_heif_load()` dlopens
// libheif.so.1 once; each `adjust_heif_*` function below calls the libheif function of the same
// name without the prefix, with the same prototype (heif.h). Call them only after
// `adjust_heif_load()` has returned 1.

#include <libheif/heif.h>

/// Loads libheif (once, thread-safe). 1 when every function below is available (the optional
/// ones at the end aside), else 0 with the reason in `adjust_heif_load_error()`.
int adjust_heif_load(void);
/// Why `adjust_heif_load()` failed (dlerror's text); empty after success.
const char *adjust_heif_load_error(void);

struct heif_context* adjust_heif_context_alloc(void);
void adjust_heif_context_free(struct heif_context *arg0);
struct heif_error adjust_heif_context_get_primary_image_ID(struct heif_context *arg0, heif_item_id *arg1);
struct heif_error adjust_heif_context_get_primary_image_handle(struct heif_context *arg0, struct heif_image_handle **arg1);
struct heif_error adjust_heif_context_read_from_memory(struct heif_context *arg0, const void *arg1, size_t arg2, const struct heif_reading_options *arg3);
struct heif_error adjust_heif_context_read_from_reader(struct heif_context *arg0, const struct heif_reader *arg1, void *arg2, const struct heif_reading_options *arg3);
void adjust_heif_context_set_max_decoding_threads(struct heif_context *arg0, int arg1);
void adjust_heif_context_set_maximum_image_size_limit(struct heif_context *arg0, int arg1);
struct heif_error adjust_heif_decode_image(const struct heif_image_handle *arg0, struct heif_image **arg1, enum heif_colorspace arg2, enum heif_chroma arg3, const struct heif_decoding_options *arg4);
struct heif_decoding_options* adjust_heif_decoding_options_alloc(void);
uint32_t adjust_heif_get_version_number(void);
void adjust_heif_decoding_options_free(struct heif_decoding_options *arg0);
int adjust_heif_image_get_height(const struct heif_image *arg0, enum heif_channel arg1);
const uint8_t* adjust_heif_image_get_plane_readonly(const struct heif_image *arg0, enum heif_channel arg1, int *arg2);
int adjust_heif_image_get_width(const struct heif_image *arg0, enum heif_channel arg1);
void adjust_heif_image_handle_free_auxiliary_types(const struct heif_image_handle *arg0, const char **arg1);
struct heif_error adjust_heif_image_handle_get_auxiliary_image_handle(const struct heif_image_handle *arg0, heif_item_id arg1, struct heif_image_handle **arg2);
struct heif_error adjust_heif_image_handle_get_auxiliary_type(const struct heif_image_handle *arg0, const char **arg1);
enum heif_color_profile_type adjust_heif_image_handle_get_color_profile_type(const struct heif_image_handle *arg0);
int adjust_heif_image_handle_get_ispe_height(const struct heif_image_handle *arg0);
int adjust_heif_image_handle_get_ispe_width(const struct heif_image_handle *arg0);
int adjust_heif_image_handle_get_list_of_auxiliary_image_IDs(const struct heif_image_handle *arg0, int arg1, heif_item_id *arg2, int arg3);
int adjust_heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle *arg0, const char *arg1, heif_item_id *arg2, int arg3);
struct heif_error adjust_heif_image_handle_get_metadata(const struct heif_image_handle *arg0, heif_item_id arg1, void *arg2);
const char* adjust_heif_image_handle_get_metadata_content_type(const struct heif_image_handle *arg0, heif_item_id arg1);
size_t adjust_heif_image_handle_get_metadata_size(const struct heif_image_handle *arg0, heif_item_id arg1);
const char* adjust_heif_image_handle_get_metadata_type(const struct heif_image_handle *arg0, heif_item_id arg1);
int adjust_heif_image_handle_get_number_of_auxiliary_images(const struct heif_image_handle *arg0, int arg1);
int adjust_heif_image_handle_get_number_of_metadata_blocks(const struct heif_image_handle *arg0, const char *arg1);
struct heif_error adjust_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *arg0, void *arg1);
size_t adjust_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *arg0);
void adjust_heif_image_handle_release(const struct heif_image_handle *arg0);
void adjust_heif_image_release(const struct heif_image *arg0);

/// 1 when libheif is loaded and has the tile API (libheif 1.19: the two functions below), else 0.
/// Call those two only after this has returned 1.
int adjust_heif_has_tile_api(void);
struct heif_error adjust_heif_image_handle_get_image_tiling(const struct heif_image_handle *arg0, int arg1, struct heif_image_tiling *arg2);
struct heif_error adjust_heif_image_handle_decode_image_tile(const struct heif_image_handle *arg0, struct heif_image **arg1, enum heif_colorspace arg2, enum heif_chroma arg3, const struct heif_decoding_options *arg4, uint32_t arg5, uint32_t arg6);

#endif
