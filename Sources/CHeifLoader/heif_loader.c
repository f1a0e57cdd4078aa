#include "heif_loader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// Every libheif function adjust calls, by name (see heif_loader.h).
#define HEIF_FUNCTIONS(X) \
    X(heif_context_alloc) \
    X(heif_context_free) \
    X(heif_context_get_primary_image_ID) \
    X(heif_context_get_primary_image_handle) \
    X(heif_context_read_from_memory) \
    X(heif_context_read_from_reader) \
    X(heif_context_set_max_decoding_threads) \
    X(heif_context_set_maximum_image_size_limit) \
    X(heif_decode_image) \
    X(heif_decoding_options_alloc) \
    X(heif_decoding_options_free) \
    X(heif_get_version_number) \
    X(heif_image_get_height) \
    X(heif_image_get_plane_readonly) \
    X(heif_image_get_width) \
    X(heif_image_handle_free_auxiliary_types) \
    X(heif_image_handle_get_auxiliary_image_handle) \
    X(heif_image_handle_get_auxiliary_type) \
    X(heif_image_handle_get_color_profile_type) \
    X(heif_image_handle_get_ispe_height) \
    X(heif_image_handle_get_ispe_width) \
    X(heif_image_handle_get_list_of_auxiliary_image_IDs) \
    X(heif_image_handle_get_list_of_metadata_block_IDs) \
    X(heif_image_handle_get_metadata) \
    X(heif_image_handle_get_metadata_content_type) \
    X(heif_image_handle_get_metadata_size) \
    X(heif_image_handle_get_metadata_type) \
    X(heif_image_handle_get_number_of_auxiliary_images) \
    X(heif_image_handle_get_number_of_metadata_blocks) \
    X(heif_image_handle_get_raw_color_profile) \
    X(heif_image_handle_get_raw_color_profile_size) \
    X(heif_image_handle_release) \
    X(heif_image_release)

// Functions adjust uses when the libheif loaded has them, and does without otherwise: the tile
// API of libheif 1.19 (a grid image decoded tile by tile). A missing one does not fail the load.
#define HEIF_OPTIONAL_FUNCTIONS(X) \
    X(heif_image_handle_get_image_tiling) \
    X(heif_image_handle_decode_image_tile)

// Pointers typed from heif.h's own declarations, so a prototype cannot drift from the library's.
static struct {
#define X(name) __typeof__(name) *name;
    HEIF_FUNCTIONS(X)
    HEIF_OPTIONAL_FUNCTIONS(X)
#undef X
} functions;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    // The soname of libheif 1.x, the ABI heif.h describes; RTLD_LOCAL keeps its symbols out of
    // the global scope.
    void *library = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(load_error, sizeof load_error, "%s", dlerror());
        return;
    }
#define X(name) \
    if (!(functions.name = (__typeof__(name) *)dlsym(library, #name))) { \
        snprintf(load_error, sizeof load_error, "libheif.so.1 has no %s", #name); \
        return; \
    }
    HEIF_FUNCTIONS(X)
#undef X
#define X(name) functions.name = (__typeof__(name) *)dlsym(library, #name);
    HEIF_OPTIONAL_FUNCTIONS(X)
#undef X
    loaded = 1;
}

int adjust_heif_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *adjust_heif_load_error(void) {
    return load_error;
}

int adjust_heif_has_tile_api(void) {
    return adjust_heif_load() && functions.heif_image_handle_get_image_tiling
        && functions.heif_image_handle_decode_image_tile;
}

struct heif_context* adjust_heif_context_alloc(void)
{ return functions.heif_context_alloc(); }

void adjust_heif_context_free(struct heif_context *arg0)
{ functions.heif_context_free(arg0); }

struct heif_error adjust_heif_context_get_primary_image_ID(struct heif_context *arg0, heif_item_id *arg1)
{ return functions.heif_context_get_primary_image_ID(arg0, arg1); }

struct heif_error adjust_heif_context_get_primary_image_handle(struct heif_context *arg0, struct heif_image_handle **arg1)
{ return functions.heif_context_get_primary_image_handle(arg0, arg1); }

struct heif_error adjust_heif_context_read_from_memory(struct heif_context *arg0, const void *arg1, size_t arg2, const struct heif_reading_options *arg3)
{ return functions.heif_context_read_from_memory(arg0, arg1, arg2, arg3); }

struct heif_error adjust_heif_context_read_from_reader(struct heif_context *arg0, const struct heif_reader *arg1, void *arg2, const struct heif_reading_options *arg3)
{ return functions.heif_context_read_from_reader(arg0, arg1, arg2, arg3); }

void adjust_heif_context_set_max_decoding_threads(struct heif_context *arg0, int arg1)
{ functions.heif_context_set_max_decoding_threads(arg0, arg1); }

void adjust_heif_context_set_maximum_image_size_limit(struct heif_context *arg0, int arg1)
{ functions.heif_context_set_maximum_image_size_limit(arg0, arg1); }

struct heif_error adjust_heif_decode_image(const struct heif_image_handle *arg0, struct heif_image **arg1, enum heif_colorspace arg2, enum heif_chroma arg3, const struct heif_decoding_options *arg4)
{ return functions.heif_decode_image(arg0, arg1, arg2, arg3, arg4); }

struct heif_decoding_options* adjust_heif_decoding_options_alloc(void)
{ return functions.heif_decoding_options_alloc(); }

void adjust_heif_decoding_options_free(struct heif_decoding_options *arg0)
{ functions.heif_decoding_options_free(arg0); }

uint32_t adjust_heif_get_version_number(void)
{ return functions.heif_get_version_number(); }

int adjust_heif_image_get_height(const struct heif_image *arg0, enum heif_channel arg1)
{ return functions.heif_image_get_height(arg0, arg1); }

const uint8_t* adjust_heif_image_get_plane_readonly(const struct heif_image *arg0, enum heif_channel arg1, int *arg2)
{ return functions.heif_image_get_plane_readonly(arg0, arg1, arg2); }

int adjust_heif_image_get_width(const struct heif_image *arg0, enum heif_channel arg1)
{ return functions.heif_image_get_width(arg0, arg1); }

void adjust_heif_image_handle_free_auxiliary_types(const struct heif_image_handle *arg0, const char **arg1)
{ functions.heif_image_handle_free_auxiliary_types(arg0, arg1); }

struct heif_error adjust_heif_image_handle_get_auxiliary_image_handle(const struct heif_image_handle *arg0, heif_item_id arg1, struct heif_image_handle **arg2)
{ return functions.heif_image_handle_get_auxiliary_image_handle(arg0, arg1, arg2); }

struct heif_error adjust_heif_image_handle_get_auxiliary_type(const struct heif_image_handle *arg0, const char **arg1)
{ return functions.heif_image_handle_get_auxiliary_type(arg0, arg1); }

enum heif_color_profile_type adjust_heif_image_handle_get_color_profile_type(const struct heif_image_handle *arg0)
{ return functions.heif_image_handle_get_color_profile_type(arg0); }

int adjust_heif_image_handle_get_ispe_height(const struct heif_image_handle *arg0)
{ return functions.heif_image_handle_get_ispe_height(arg0); }

int adjust_heif_image_handle_get_ispe_width(const struct heif_image_handle *arg0)
{ return functions.heif_image_handle_get_ispe_width(arg0); }

int adjust_heif_image_handle_get_list_of_auxiliary_image_IDs(const struct heif_image_handle *arg0, int arg1, heif_item_id *arg2, int arg3)
{ return functions.heif_image_handle_get_list_of_auxiliary_image_IDs(arg0, arg1, arg2, arg3); }

int adjust_heif_image_handle_get_list_of_metadata_block_IDs(const struct heif_image_handle *arg0, const char *arg1, heif_item_id *arg2, int arg3)
{ return functions.heif_image_handle_get_list_of_metadata_block_IDs(arg0, arg1, arg2, arg3); }

struct heif_error adjust_heif_image_handle_get_metadata(const struct heif_image_handle *arg0, heif_item_id arg1, void *arg2)
{ return functions.heif_image_handle_get_metadata(arg0, arg1, arg2); }

const char* adjust_heif_image_handle_get_metadata_content_type(const struct heif_image_handle *arg0, heif_item_id arg1)
{ return functions.heif_image_handle_get_metadata_content_type(arg0, arg1); }

size_t adjust_heif_image_handle_get_metadata_size(const struct heif_image_handle *arg0, heif_item_id arg1)
{ return functions.heif_image_handle_get_metadata_size(arg0, arg1); }

const char* adjust_heif_image_handle_get_metadata_type(const struct heif_image_handle *arg0, heif_item_id arg1)
{ return functions.heif_image_handle_get_metadata_type(arg0, arg1); }

int adjust_heif_image_handle_get_number_of_auxiliary_images(const struct heif_image_handle *arg0, int arg1)
{ return functions.heif_image_handle_get_number_of_auxiliary_images(arg0, arg1); }

int adjust_heif_image_handle_get_number_of_metadata_blocks(const struct heif_image_handle *arg0, const char *arg1)
{ return functions.heif_image_handle_get_number_of_metadata_blocks(arg0, arg1); }

struct heif_error adjust_heif_image_handle_get_raw_color_profile(const struct heif_image_handle *arg0, void *arg1)
{ return functions.heif_image_handle_get_raw_color_profile(arg0, arg1); }

size_t adjust_heif_image_handle_get_raw_color_profile_size(const struct heif_image_handle *arg0)
{ return functions.heif_image_handle_get_raw_color_profile_size(arg0); }

void adjust_heif_image_handle_release(const struct heif_image_handle *arg0)
{ functions.heif_image_handle_release(arg0); }

void adjust_heif_image_release(const struct heif_image *arg0)
{ functions.heif_image_release(arg0); }

struct heif_error adjust_heif_image_handle_get_image_tiling(const struct heif_image_handle *arg0, int arg1, struct heif_image_tiling *arg2)
{ return functions.heif_image_handle_get_image_tiling(arg0, arg1, arg2); }

struct heif_error adjust_heif_image_handle_decode_image_tile(const struct heif_image_handle *arg0, struct heif_image **arg1, enum heif_colorspace arg2, enum heif_chroma arg3, const struct heif_decoding_options *arg4, uint32_t arg5, uint32_t arg6)
{ return functions.heif_image_handle_decode_image_tile(arg0, arg1, arg2, arg3, arg4, arg5, arg6); }
