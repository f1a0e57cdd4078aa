#ifndef JPEG_REGION_H
#define JPEG_REGION_H

/* Region decoding and row-streamed encoding through libjpeg-turbo's libjpeg API.
 *
 * libjpeg reports errors by longjmp-ing out of its error handler, which Swift cannot survive,
 * so every libjpeg call happens inside one of these functions, behind a setjmp. Errors come back
 * as a status code; the message (libjpeg's own text) is in the handle, or in `err` for open. After
 * an error a handle only accepts close. */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    JR_OK = 0,
    JR_ERROR = 1 /* libjpeg error, or a damage warning that was not tolerated; see the message */
};

typedef struct jr_decoder jr_decoder;
typedef struct jr_encoder jr_encoder;

/* Reads the header of `data`, which must stay valid until close. Returns NULL with *status and
 * `err` (NUL-terminated, at most err_size bytes) set on failure. libjpeg's warnings are sorted
 * by what they mean for the pixels (jpeg_region.c, jr_is_harmless): harmless ones (an unknown
 * JFIF revision, stray bytes between header segments) are counted and never stop the decode;
 * the others (damaged or missing image data) fail unless tolerate_warnings, as TurboJPEG's
 * TJFLAG_STOPONWARNING, and are counted when tolerated. limit_scans fails progressive files
 * after 500 scans, as TJFLAG_LIMITSCANS. */
jr_decoder *jr_decoder_open(const unsigned char *data, size_t size, int tolerate_warnings,
                            int limit_scans, int *status, char *err, size_t err_size);

/* As jr_decoder_open, reading the open file `fd` as libjpeg consumes it rather than a buffer:
 * positioned reads (pread) from offset 0 into a buffer of `buffer_size` bytes (0: 128 KiB; at
 * least 64 KiB), never past `size`, the file's size when it was opened. The pixels, warnings and
 * errors are those of the same bytes in memory (where the data ends, a warning and a fake EOI,
 * as jpeg_mem_src; and every MCU finds as much data ahead as libjpeg's fast path asks for:
 * jpeg_region.c, jr_file_source).
 * `expect` (`expect_size` bytes, copied) is the file's start as the caller read it before: a byte
 * read there that differs, a file found shorter than `size`, or a failed read is an input error,
 * which fails the open or the read it happens in and is reported in *input_error (open) or by
 * jr_decoder_input_error. The caller keeps `fd` open until close. */
jr_decoder *jr_decoder_open_file(int fd, long long size, const unsigned char *expect, size_t expect_size,
                                 size_t buffer_size, int tolerate_warnings, int limit_scans, int *status,
                                 int *input_error, char *err, size_t err_size);

/* 0, or why the file could not be read: an errno value, or -1 when it changed (shorter than its
 * size at open, or its start different from `expect`). Always 0 for a decoder on memory. */
int jr_decoder_input_error(const jr_decoder *dec);

/* The size as stored. */
int jr_decoder_width(const jr_decoder *dec);
int jr_decoder_height(const jr_decoder *dec);

/* Bytes per delivered pixel: 3 (RGB; grayscale expanded) or 4 (a CMYK or YCCK file, delivered
 * as CMYK, YCCK converted by libjpeg). */
int jr_decoder_components(const jr_decoder *dec);
/* 1 for a CMYK file with an Adobe APP14 marker: its values are inverted (0 = full ink). */
int jr_decoder_adobe_inverted(const jr_decoder *dec);
/* The ICC profile, reassembled by libjpeg's jpeg_read_icc_profile from every APP2 chunk in
 * sequence order; *profile is NULL when there is none or the chunks are inconsistent. Free
 * with jr_free. Call before jr_decoder_start. */
int jr_decoder_icc_profile(jr_decoder *dec, unsigned char **profile, unsigned int *length);
void jr_free(void *pointer);

/* Warnings let through so far, and the first message of each kind ("" if none): harmless ones,
 * and damage tolerated under tolerate_warnings. */
int jr_decoder_harmless_count(const jr_decoder *dec);
const char *jr_decoder_harmless_message(const jr_decoder *dec);
int jr_decoder_damage_count(const jr_decoder *dec);
const char *jr_decoder_damage_message(const jr_decoder *dec);

/* Starts decoding at scale_num/8 (1...16), RGB (grayscale expanded) or CMYK, delivering columns [x, x+w)
 * of the scaled image, ceil(W*n/8) x ceil(H*n/8), from row y down. Pixels are byte-identical to
 * TurboJPEG's tjDecompress2 at the same scale. *out_x and *out_w report the columns each read
 * delivers (x and w: the wider crop libjpeg decodes stays inside). Call once. The rows above y
 * are skipped (entropy-decoded, not output) by the first jr_decoder_read, not here. */
int jr_decoder_start(jr_decoder *dec, int scale_num, int x, int w, int y, int *out_x, int *out_w);

/* Reads the next `rows` rows (no more than are left) into dst, `stride` bytes apart, with
 * jr_decoder_components bytes a pixel. */
int jr_decoder_read(jr_decoder *dec, unsigned char *dst, size_t stride, int rows);

/* The columns libjpeg decodes beside the delivered ones (the iMCUs around them; 0 and 0 when
 * the delivered columns are all it decodes): *left before the first, *right after the last.
 * Call after jr_decoder_start. */
void jr_decoder_margins(const jr_decoder *dec, int *left, int *right);

/* As jr_decoder_read, with libjpeg decoding straight into the caller's rows rather than into a
 * buffer of its own that is then copied: dst is still each row's first delivered column, and
 * every row must have room for jr_decoder_margins' columns before and after it, which are
 * written too (with pixels of no use to the caller). Not for CMYK files (4 components), whose
 * rows the caller converts: jr_decoder_read. */
int jr_decoder_read_in_place(jr_decoder *dec, unsigned char *dst, size_t stride, int rows);

/* The last error's message, "" if none. */
const char *jr_decoder_message(const jr_decoder *dec);

/* Stops (possibly early, on purpose) and frees. NULL is ignored. */
void jr_decoder_close(jr_decoder *dec);

/* A baseline JPEG encoder set up as TurboJPEG's tjCompress2 would be for TJPF_RGB input,
 * 4:4:4 or 4:2:0 and flags 0, so that the bytes are the same; with `restart_rows` > 0, a
 * restart marker every that many rows of MCUs (which tjCompress2 never writes). With `rgbx`,
 * the rows hold 4 bytes a pixel, the fourth ignored (the same file for the same RGB). Returns
 * NULL with `err` set on failure. */
jr_encoder *jr_encoder_open(int width, int height, int quality, int subsample_444, int restart_rows,
                            int rgbx, char *err, size_t err_size);

/* Compresses the next `rows` rows (RGB, or RGBX when opened so), `stride` bytes apart. */
int jr_encoder_write(jr_encoder *enc, const unsigned char *rgb, size_t stride, int rows);

/* After every row is written: completes the file. *out stays owned by the encoder and valid
 * until close. */
int jr_encoder_finish(jr_encoder *enc, const unsigned char **out, size_t *size);

const char *jr_encoder_message(const jr_encoder *enc);

/* Frees the encoder and its output. NULL is ignored. */
void jr_encoder_close(jr_encoder *enc);

#ifdef __cplusplus
}
#endif

#endif
