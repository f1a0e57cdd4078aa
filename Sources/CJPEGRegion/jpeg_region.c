#include "jpeg_region.h"

#include <setjmp.h>
#include <stdio.h> /* jpeglib.h uses FILE and size_t without including them */
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <unistd.h>

#include <jpeglib.h>
#include <jerror.h>
#include <jpegint.h> /* struct jpeg_entropy_decoder: the file source's decode_mcu wrapper */

/* libjpeg's error_exit must not return. Ours formats the message into the handle and longjmps
 * back to the setjmp in whichever shim function is running. */
typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    int tolerate_warnings;
    /* Set while jpeg_read_header runs: markers before the first scan, no image data yet. */
    int reading_header;
    /* Set while jpeg_read_icc_profile runs: its warning is answered by a NULL profile. */
    int reading_icc;
    char message[JMSG_LENGTH_MAX];
    /* The warnings let through, by kind, and the first message of each kind. */
    int harmless_count, damage_count;
    char harmless[JMSG_LENGTH_MAX];
    char damage[JMSG_LENGTH_MAX];
} jr_error;

static void jr_error_exit(j_common_ptr cinfo) {
    jr_error *err = (jr_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

/* Whether a warning leaves every decoded pixel intact. Two do, by where libjpeg raises them:
 * an unknown JFIF revision (jdmarker.c's get_interesting_appn; only the APP0 version byte is
 * read), and bytes skipped before a marker while the header is read (next_marker, called by
 * read_markers before the first SOS: the bytes lie between segments, where no image data is).
 * The same bytes skipped once the scans are being read mean the entropy-coded data ran short of
 * its segment, and every other warning (premature end of data or file, bad Huffman or
 * arithmetic code, a lost restart marker, an inconsistent progression) means damaged or missing
 * coefficients, which libjpeg replaces with zeros (grey). */
static int jr_is_harmless(const jr_error *err) {
    switch (err->pub.msg_code) {
    case JWRN_JFIF_MAJOR: return 1;
    case JWRN_EXTRANEOUS_DATA: return err->reading_header;
    default: return 0;
    }
}

/* Warnings (msg_level -1): harmless ones are counted and let through; the others stop the work
 * unless tolerated (as TurboJPEG's TJFLAG_STOPONWARNING), and are counted when they are. Trace
 * messages (>= 0) are dropped. Nothing goes to stderr. */
static void jr_emit_message(j_common_ptr cinfo, int msg_level) {
    jr_error *err = (jr_error *)cinfo->err;
    if (msg_level >= 0) return;
    cinfo->err->num_warnings++;
    if (err->reading_icc) return; /* jpeg_read_icc_profile returns FALSE after it */
    if (jr_is_harmless(err)) {
        if (err->harmless_count++ == 0) (*cinfo->err->format_message)(cinfo, err->harmless);
        return;
    }
    if (!err->tolerate_warnings) jr_error_exit(cinfo);
    if (err->damage_count++ == 0) (*cinfo->err->format_message)(cinfo, err->damage);
}

static void jr_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void jr_error_init(jr_error *err, int tolerate_warnings) {
    jpeg_std_error(&err->pub);
    err->pub.error_exit = jr_error_exit;
    err->pub.emit_message = jr_emit_message;
    err->pub.output_message = jr_output_message;
    err->tolerate_warnings = tolerate_warnings;
    err->message[0] = '\0';
    err->harmless[0] = err->damage[0] = '\0';
}

static void jr_copy_message(const char *message, char *err, size_t err_size) {
    if (err && err_size > 0) snprintf(err, err_size, "%s", message);
}

/* ---------------------------------------------------------------------------------------------
 * Decoder */

/* A libjpeg source reading a file as libjpeg consumes it: positioned reads (pread) into a buffer
 * of its own, from offset 0, never past the size the file had when it was opened. Where the data
 * ends it does what jpeg_mem_src does (a warning and a fake EOI, as often as libjpeg asks), so a
 * file decodes exactly as the same bytes in memory; a read that fails, or finds the file shorter
 * than that size or its start different from what the caller read before, is an input error.
 *
 * Exactly, because of one more thing. libjpeg-turbo's sequential Huffman decoder takes its fast
 * path for an MCU only when the source holds at least 512 bytes a block (jdhuff.c, decode_mcu);
 * otherwise its slow path, which alone reports a bad Huffman code (the fast path decodes one as 0
 * without a word). In memory the source holds the rest of the file, so the slow path runs only
 * in the file's last few KB; a plain buffered source would run it at the end of every buffer,
 * and a damaged file could be refused ("bad Huffman code") where the same bytes in memory are
 * not, or report its damage differently. So the entropy decoder's decode_mcu is wrapped
 * (jr_file_decode_mcu) to top the buffer up to JR_FILE_AHEAD bytes, or to the file's end, before
 * every MCU: each MCU sees what it would see in memory, more than the fast path's 512 bytes a
 * block (at most D_MAX_BLOCKS_IN_MCU = 10 blocks), or all that is left. */
#define JR_FILE_AHEAD 32768
#define JR_FILE_BUFFER 131072

typedef struct {
    struct jpeg_source_mgr pub;
    int fd;
    long long offset, size;
    /* The caller's copy of the file's start, checked against every byte read there. */
    unsigned char *expect;
    size_t expect_size;
    int input_error; /* 0, an errno value, or -1: the file changed */
    unsigned char *buffer;
    size_t buffer_size; /* at least 2 * JR_FILE_AHEAD */
    /* The entropy decoder's own decode_mcu, which jr_file_decode_mcu calls. */
    boolean (*decode_mcu)(j_decompress_ptr cinfo, JBLOCKROW *MCU_data);
} jr_file_source;

static void jr_file_init(j_decompress_ptr cinfo) { (void)cinfo; }
static void jr_file_term(j_decompress_ptr cinfo) { (void)cinfo; }

static void jr_file_fail(j_decompress_ptr cinfo, int input_error) {
    jr_file_source *src = (jr_file_source *)cinfo->src;
    jr_error *err = (jr_error *)cinfo->err;
    src->input_error = input_error;
    snprintf(err->message, sizeof err->message, "%s",
             input_error > 0 ? strerror(input_error) : "the file changed while it was read");
    longjmp(err->jump, 1);
}

/* Reads the next bytes of the file (at most `room`, and at least one: the caller checked that
 * some are left) into dst; the count read. */
static size_t jr_file_read(j_decompress_ptr cinfo, unsigned char *dst, size_t room) {
    jr_file_source *src = (jr_file_source *)cinfo->src;
    long long left = src->size - src->offset;
    size_t want = left < (long long)room ? (size_t)left : room;
    ssize_t got;
    do got = pread(src->fd, dst, want, (off_t)src->offset); while (got < 0 && errno == EINTR);
    if (got < 0) jr_file_fail(cinfo, errno ? errno : EIO);
    if (got == 0) jr_file_fail(cinfo, -1); /* shorter than it was */
    if ((size_t)src->offset < src->expect_size) {
        size_t end = (size_t)src->offset + (size_t)got, stop = end < src->expect_size ? end : src->expect_size;
        if (memcmp(dst, src->expect + src->offset, stop - (size_t)src->offset) != 0) jr_file_fail(cinfo, -1);
    }
    src->offset += got;
    return (size_t)got;
}

static boolean jr_file_fill(j_decompress_ptr cinfo) {
    static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};
    jr_file_source *src = (jr_file_source *)cinfo->src;
    if (src->offset >= src->size) {
        /* As jpeg_mem_src's fill_mem_input_buffer. */
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->pub.next_input_byte = fake_eoi;
        src->pub.bytes_in_buffer = 2;
        return TRUE;
    }
    src->pub.bytes_in_buffer = jr_file_read(cinfo, src->buffer, src->buffer_size);
    src->pub.next_input_byte = src->buffer;
    return TRUE;
}

/* The entropy decoder's decode_mcu, with the buffer topped up first (see jr_file_source). */
static boolean jr_file_decode_mcu(j_decompress_ptr cinfo, JBLOCKROW *MCU_data) {
    jr_file_source *src = (jr_file_source *)cinfo->src;
    size_t have = src->pub.bytes_in_buffer;
    if (have < JR_FILE_AHEAD && src->offset < src->size) {
        /* Data is left in the file, so the buffer is ours (the fake EOI comes only after it). */
        memmove(src->buffer, src->pub.next_input_byte, have);
        while (have < JR_FILE_AHEAD && src->offset < src->size)
            have += jr_file_read(cinfo, src->buffer + have, src->buffer_size - have);
        src->pub.next_input_byte = src->buffer;
        src->pub.bytes_in_buffer = have;
    }
    return src->decode_mcu(cinfo, MCU_data);
}

/* Puts jr_file_decode_mcu in front of the entropy decoder's decode_mcu, once it exists and
 * whenever libjpeg has set a new one (the progressive decoder sets one per scan). */
static void jr_file_wrap_entropy(j_decompress_ptr cinfo) {
    jr_file_source *src = (jr_file_source *)cinfo->src;
    if (cinfo->entropy && cinfo->entropy->decode_mcu != jr_file_decode_mcu) {
        src->decode_mcu = cinfo->entropy->decode_mcu;
        cinfo->entropy->decode_mcu = jr_file_decode_mcu;
    }
}

/* jdatasrc.c's skip_input_data, which jpeg_mem_src uses: past the end, one warning and fake EOI
 * per fill, as there. */
static void jr_file_skip(j_decompress_ptr cinfo, long num_bytes) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (num_bytes > 0) {
        while (num_bytes > (long)src->bytes_in_buffer) {
            num_bytes -= (long)src->bytes_in_buffer;
            (void)(*src->fill_input_buffer)(cinfo);
        }
        src->next_input_byte += (size_t)num_bytes;
        src->bytes_in_buffer -= (size_t)num_bytes;
    }
}

static void jr_file_source_free(jr_file_source *src) {
    if (!src) return;
    free(src->expect);
    free(src->buffer);
    free(src);
}

struct jr_decoder {
    struct jpeg_decompress_struct cinfo;
    jr_error err;
    struct jpeg_progress_mgr progress;
    jr_file_source *file; /* NULL when reading memory */
    int limit_scans;
    int failed, started;
    int stored_width, stored_height;
    int components; /* delivered per pixel: 3 (RGB) or 4 (CMYK, as stored) */
    /* Columns delivered, and where they start within libjpeg's (wider) cropped rows. */
    int out_x, out_w, skip_cols;
    int next_row;
    int rows_to_skip; /* skipped by the first read, on the thread that decodes */
    /* Rows of libjpeg's cropped width, for when the delivered columns are a part of them and the
     * caller's rows have no room for the rest (jr_decoder_read): allocated by the first such read. */
    unsigned char *buffer;
    int buffer_rows;
    size_t buffer_stride;
};

/* TurboJPEG's TJFLAG_LIMITSCANS: a progressive file can have thousands of tiny scans, each
 * costing a pass over the coefficients (a CPU bomb). And for a file source, the decode_mcu
 * wrapper: libjpeg calls the monitor before it absorbs each scan of a multi-scan file, inside
 * jpeg_start_decompress. */
static void jr_progress_monitor(j_common_ptr cinfo) {
    jr_decoder *dec = (jr_decoder *)cinfo; /* cinfo is its first member */
    jr_error *err = (jr_error *)cinfo->err;
    if (dec->limit_scans && dec->cinfo.input_scan_number > 500) {
        snprintf(err->message, sizeof err->message, "Progressive JPEG image has more than 500 scans");
        longjmp(err->jump, 1);
    }
    if (dec->file) jr_file_wrap_entropy(&dec->cinfo);
}

/* Opens a decoder on `data` (file NULL) or on `file` (which it then owns). */
static jr_decoder *jr_decoder_open_source(const unsigned char *data, size_t size, jr_file_source *file,
                                          int tolerate_warnings, int limit_scans, int *status, int *input_error,
                                          char *err, size_t err_size) {
    if (input_error) *input_error = 0;
    jr_decoder *dec = calloc(1, sizeof *dec);
    if (!dec) {
        jr_file_source_free(file);
        *status = JR_ERROR;
        jr_copy_message("out of memory", err, err_size);
        return NULL;
    }
    dec->file = file;
    dec->cinfo.err = &dec->err.pub;
    jr_error_init(&dec->err, tolerate_warnings);
    if (setjmp(dec->err.jump)) {
        *status = JR_ERROR;
        if (input_error && dec->file) *input_error = dec->file->input_error;
        jr_copy_message(dec->err.message, err, err_size);
        jr_decoder_close(dec);
        return NULL;
    }
    jpeg_create_decompress(&dec->cinfo);
    dec->limit_scans = limit_scans;
    if (limit_scans || file) {
        dec->progress.progress_monitor = jr_progress_monitor;
        dec->cinfo.progress = &dec->progress;
    }
    if (file) {
        file->pub.init_source = jr_file_init;
        file->pub.fill_input_buffer = jr_file_fill;
        file->pub.skip_input_data = jr_file_skip;
        file->pub.resync_to_restart = jpeg_resync_to_restart;
        file->pub.term_source = jr_file_term;
        file->pub.bytes_in_buffer = 0;
        file->pub.next_input_byte = NULL;
        dec->cinfo.src = &file->pub;
    } else {
        jpeg_mem_src(&dec->cinfo, data, (unsigned long)size);
    }
    /* Kept for jr_decoder_icc_profile (a CMYK file is converted through its profile). */
    jpeg_save_markers(&dec->cinfo, JPEG_APP0 + 2, 0xFFFF);
    dec->err.reading_header = 1;
    jpeg_read_header(&dec->cinfo, TRUE);
    dec->err.reading_header = 0;
    int cmyk = dec->cinfo.jpeg_color_space == JCS_CMYK || dec->cinfo.jpeg_color_space == JCS_YCCK;
    dec->components = cmyk ? 4 : 3;
    dec->stored_width = (int)dec->cinfo.image_width;
    dec->stored_height = (int)dec->cinfo.image_height;
    *status = JR_OK;
    return dec;
}

jr_decoder *jr_decoder_open(const unsigned char *data, size_t size, int tolerate_warnings,
                            int limit_scans, int *status, char *err, size_t err_size) {
    return jr_decoder_open_source(data, size, NULL, tolerate_warnings, limit_scans, status, NULL, err, err_size);
}

jr_decoder *jr_decoder_open_file(int fd, long long size, const unsigned char *expect, size_t expect_size,
                                 size_t buffer_size, int tolerate_warnings, int limit_scans, int *status,
                                 int *input_error, char *err, size_t err_size) {
    *input_error = 0;
    if (buffer_size == 0) buffer_size = JR_FILE_BUFFER;
    if (buffer_size < 2 * JR_FILE_AHEAD) buffer_size = 2 * JR_FILE_AHEAD;
    jr_file_source *file = calloc(1, sizeof *file);
    if (file) {
        file->buffer = malloc(buffer_size);
        file->expect = malloc(expect_size ? expect_size : 1);
    }
    if (!file || !file->buffer || !file->expect) {
        jr_file_source_free(file);
        *status = JR_ERROR;
        jr_copy_message("out of memory", err, err_size);
        return NULL;
    }
    if (expect_size) memcpy(file->expect, expect, expect_size);
    file->expect_size = expect_size;
    file->fd = fd;
    file->size = size;
    file->buffer_size = buffer_size;
    return jr_decoder_open_source(NULL, 0, file, tolerate_warnings, limit_scans, status, input_error, err, err_size);
}

int jr_decoder_input_error(const jr_decoder *dec) { return dec->file ? dec->file->input_error : 0; }

int jr_decoder_width(const jr_decoder *dec) { return dec->stored_width; }
int jr_decoder_height(const jr_decoder *dec) { return dec->stored_height; }
int jr_decoder_components(const jr_decoder *dec) { return dec->components; }
int jr_decoder_adobe_inverted(const jr_decoder *dec) {
    /* Adobe's applications write CMYK with 0 for full ink (libjpeg's jdmarker.c and every
     * reader since treat an APP14 "Adobe" marker as saying so). */
    return dec->components == 4 && dec->cinfo.saw_Adobe_marker;
}

int jr_decoder_icc_profile(jr_decoder *dec, unsigned char **profile, unsigned int *length) {
    *profile = NULL;
    *length = 0;
    if (dec->failed) return JR_ERROR;
    if (setjmp(dec->err.jump)) {
        dec->err.reading_icc = 0;
        dec->failed = 1;
        return JR_ERROR;
    }
    dec->err.reading_icc = 1;
    boolean found = jpeg_read_icc_profile(&dec->cinfo, profile, length);
    dec->err.reading_icc = 0;
    if (!found) {
        *profile = NULL;
        *length = 0;
    }
    return JR_OK;
}

void jr_free(void *pointer) { free(pointer); }

int jr_decoder_harmless_count(const jr_decoder *dec) { return dec->err.harmless_count; }
const char *jr_decoder_harmless_message(const jr_decoder *dec) { return dec->err.harmless; }
int jr_decoder_damage_count(const jr_decoder *dec) { return dec->err.damage_count; }
const char *jr_decoder_damage_message(const jr_decoder *dec) { return dec->err.damage; }

/* libjpeg's jdiv_round_up(dimension * n, 8), which is also TurboJPEG's TJSCALED. */
static int jr_decoder_scaled_width(const jr_decoder *dec, int scale_num) {
    return (int)(((long)dec->stored_width * scale_num + 7) / 8);
}
static int jr_decoder_scaled_height(const jr_decoder *dec, int scale_num) {
    return (int)(((long)dec->stored_height * scale_num + 7) / 8);
}

static int jr_fail(jr_decoder *dec, const char *message) {
    snprintf(dec->err.message, sizeof dec->err.message, "%s", message);
    dec->failed = 1;
    return JR_ERROR;
}

/* Reads up to `rows` rows of libjpeg's cropped width into dst. */
static void jr_read_cropped(jr_decoder *dec, unsigned char *dst, size_t stride, int rows) {
    JSAMPROW pointers[64];
    while (rows > 0) {
        int chunk = rows < 64 ? rows : 64;
        for (int i = 0; i < chunk; i++) pointers[i] = dst + (size_t)i * stride;
        JDIMENSION got = jpeg_read_scanlines(&dec->cinfo, pointers, (JDIMENSION)chunk);
        /* Neither source ever suspends; 0 would mean a libjpeg state we do not expect. */
        if (got == 0) {
            snprintf(dec->err.message, sizeof dec->err.message, "libjpeg returned no rows");
            longjmp(dec->err.jump, 1);
        }
        dst += (size_t)got * stride;
        rows -= (int)got;
    }
}

/* Reads `rows` rows through the buffer and copies the delivered columns. */
static void jr_read_buffered(jr_decoder *dec, unsigned char *dst, size_t stride, int rows) {
    if (!dec->buffer && !(dec->buffer = malloc(dec->buffer_stride * (size_t)dec->buffer_rows))) {
        snprintf(dec->err.message, sizeof dec->err.message, "out of memory");
        longjmp(dec->err.jump, 1);
    }
    while (rows > 0) {
        int chunk = rows < dec->buffer_rows ? rows : dec->buffer_rows;
        jr_read_cropped(dec, dec->buffer, dec->buffer_stride, chunk);
        for (int i = 0; i < chunk; i++)
            memcpy(dst + (size_t)i * stride, dec->buffer + (size_t)i * dec->buffer_stride + (size_t)dec->skip_cols * (size_t)dec->components,
                   (size_t)dec->out_w * (size_t)dec->components);
        dst += (size_t)chunk * stride;
        rows -= chunk;
    }
}

int jr_decoder_start(jr_decoder *dec, int scale_num, int x, int w, int y, int *out_x, int *out_w) {
    struct jpeg_decompress_struct *cinfo = &dec->cinfo;
    if (dec->failed) return JR_ERROR;
    if (dec->started) return jr_fail(dec, "decoding already started");
    if (scale_num < 1 || scale_num > 16) return jr_fail(dec, "scale must be 1/8 to 16/8");
    int width = jr_decoder_scaled_width(dec, scale_num), height = jr_decoder_scaled_height(dec, scale_num);
    if (x < 0 || w < 1 || x > width - w || y < 0 || y > height)
        return jr_fail(dec, "region outside the decoded image");
    if (setjmp(dec->err.jump)) {
        dec->failed = 1;
        return JR_ERROR;
    }
    /* TurboJPEG decodes with the largest factor m/8 whose output fits the size asked for, so an
     * image under 8 px a side asked for at n/8 can be decoded at a larger m/8 of the same output
     * size (and other pixels). Do as it does. */
    while (scale_num < 16 && jr_decoder_scaled_width(dec, scale_num + 1) == width &&
           jr_decoder_scaled_height(dec, scale_num + 1) == height)
        scale_num++;
    dec->started = 1;
    cinfo->scale_num = (unsigned int)scale_num;
    cinfo->scale_denom = 8;
    /* libjpeg turns YCCK into CMYK itself; CMYK to RGB needs the file's ICC profile (the caller). */
    cinfo->out_color_space = dec->components == 4 ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(cinfo);
    /* A single-scan file's MCUs are decoded from here on (jpeg_skip_scanlines calls decode_mcu
     * with no monitor call before). */
    if (dec->file) jr_file_wrap_entropy(cinfo);
    if ((int)cinfo->output_width != width || (int)cinfo->output_height != height)
        return jr_fail(dec, "libjpeg's scaled size differs from ceil(size * n / 8)");

    /* jpeg_crop_scanline moves the left edge down to an iMCU boundary and keeps the right edge,
     * and the upsampler then treats both edges as the image's: fancy (triangle) upsampling of
     * 4:2:0 and 4:2:2 chroma replicates the edge sample instead of using its neighbour, so the
     * outermost column on each side can differ from a full decode (seen at 8/8 for 4:2:0, where
     * smaller scales have the IDCT scale chroma up instead, and at every scale for 4:2:2). A
     * crop under two chroma samples wide is worse: libjpeg switches to plain replicating
     * upsampling for it (seen for columns 0..<1). So the crop gets one iMCU more on each side
     * (then it is over one iMCU wide, and its edges are never delivered columns) and only the
     * columns asked for are delivered. jpeg_skip_scanlines needs no margin: where the
     * vertical upsampler needs context rows it decodes them rather than skipping them (tests
     * check every row offset in the first iMCU rows). */
    int margin = cinfo->min_DCT_scaled_size * cinfo->max_h_samp_factor;
    int crop_start = x > margin ? x - margin : 0;
    int crop_end = x + w < width - margin ? x + w + margin : width;
    JDIMENSION crop_x = (JDIMENSION)crop_start, crop_w = (JDIMENSION)(crop_end - crop_start);
    jpeg_crop_scanline(cinfo, &crop_x, &crop_w);
    dec->out_x = x;
    dec->out_w = w;
    dec->skip_cols = x - (int)crop_x;
    dec->buffer_rows = cinfo->min_DCT_scaled_size * cinfo->max_v_samp_factor; /* one iMCU row */
    dec->buffer_stride = (size_t)crop_w * (size_t)dec->components;

    /* The skip entropy-decodes every row above y: left to the first read, so that it runs on
     * whichever thread decodes (the fused renderer's decoding task, PulledDecode) rather than here. */
    dec->rows_to_skip = y;
    dec->next_row = y;
    *out_x = dec->out_x;
    *out_w = dec->out_w;
    return JR_OK;
}

/* The reads' common part: the skip left by jr_decoder_start, then the rows, straight into dst
 * (`in_place`: dst's rows have room for the margins; or nothing is cropped off) or through the
 * buffer. */
static int jr_read(jr_decoder *dec, unsigned char *dst, size_t stride, int rows, int in_place) {
    if (dec->failed) return JR_ERROR;
    if (!dec->started) return jr_fail(dec, "decoding not started");
    if (rows < 0 || rows > (int)dec->cinfo.output_height - dec->next_row)
        return jr_fail(dec, "more rows asked for than are left");
    if (in_place && dec->components != 3) return jr_fail(dec, "a CMYK file is not read in place");
    if (setjmp(dec->err.jump)) {
        dec->failed = 1;
        return JR_ERROR;
    }
    if (dec->rows_to_skip > 0) {
        JDIMENSION skip = (JDIMENSION)dec->rows_to_skip;
        dec->rows_to_skip = 0;
        jpeg_skip_scanlines(&dec->cinfo, skip);
    }
    if (in_place)
        jr_read_cropped(dec, dst - (size_t)dec->skip_cols * (size_t)dec->components, stride, rows);
    else if (dec->skip_cols == 0 && (int)dec->cinfo.output_width == dec->out_w)
        jr_read_cropped(dec, dst, stride, rows);
    else
        jr_read_buffered(dec, dst, stride, rows);
    dec->next_row += rows;
    return JR_OK;
}

int jr_decoder_read(jr_decoder *dec, unsigned char *dst, size_t stride, int rows) {
    return jr_read(dec, dst, stride, rows, 0);
}

int jr_decoder_read_in_place(jr_decoder *dec, unsigned char *dst, size_t stride, int rows) {
    return jr_read(dec, dst, stride, rows, 1);
}

void jr_decoder_margins(const jr_decoder *dec, int *left, int *right) {
    *left = dec->skip_cols;
    *right = (int)dec->cinfo.output_width - dec->skip_cols - dec->out_w;
}

const char *jr_decoder_message(const jr_decoder *dec) { return dec->err.message; }

void jr_decoder_close(jr_decoder *dec) {
    if (!dec) return;
    /* Destroying also aborts: stopping before the last row is the point of a region decode,
     * and jpeg_finish_decompress would read (and check) the rest of the file. */
    jpeg_destroy_decompress(&dec->cinfo);
    jr_file_source_free(dec->file);
    free(dec->buffer);
    free(dec);
}

/* ---------------------------------------------------------------------------------------------
 * Encoder */

/* A growing memory destination that the encoder owns. jpeg_mem_dest would do, except that
 * after an error its buffer pointer may already have been freed by a reallocation. */
typedef struct {
    struct jpeg_destination_mgr pub;
    unsigned char *data;
    size_t capacity, size;
} jr_destination;

struct jr_encoder {
    struct jpeg_compress_struct cinfo;
    jr_error err;
    jr_destination dest;
    int failed, finished;
};

static void jr_dest_init(j_compress_ptr cinfo) { (void)cinfo; }

static boolean jr_dest_grow(j_compress_ptr cinfo) {
    jr_destination *dest = (jr_destination *)cinfo->dest;
    size_t capacity = dest->capacity * 2;
    unsigned char *data = realloc(dest->data, capacity);
    if (!data) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 10);
    /* libjpeg calls this only when the buffer is full. */
    dest->pub.next_output_byte = data + dest->capacity;
    dest->pub.free_in_buffer = capacity - dest->capacity;
    dest->data = data;
    dest->capacity = capacity;
    return TRUE;
}

static void jr_dest_term(j_compress_ptr cinfo) {
    jr_destination *dest = (jr_destination *)cinfo->dest;
    dest->size = dest->capacity - dest->pub.free_in_buffer;
}

jr_encoder *jr_encoder_open(int width, int height, int quality, int subsample_444, int restart_rows,
                            int rgbx, char *err, size_t err_size) {
    if (width < 1 || height < 1 || width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        jr_copy_message("image size outside 1...65500", err, err_size);
        return NULL;
    }
    jr_encoder *enc = calloc(1, sizeof *enc);
    if (!enc) {
        jr_copy_message("out of memory", err, err_size);
        return NULL;
    }
    enc->cinfo.err = &enc->err.pub;
    /* TurboJPEG only stops on compression warnings when asked to; flags 0 does not. */
    jr_error_init(&enc->err, 1);
    if (setjmp(enc->err.jump)) {
        jr_copy_message(enc->err.message, err, err_size);
        jr_encoder_close(enc);
        return NULL;
    }
    jpeg_create_compress(&enc->cinfo);
    /* Roughly the output for quality 90 4:2:0, so a few doublings at most. */
    enc->dest.capacity = (size_t)width * (size_t)height / 4 + 4096;
    enc->dest.data = malloc(enc->dest.capacity);
    if (!enc->dest.data) ERREXIT1(&enc->cinfo, JERR_OUT_OF_MEMORY, 10);
    enc->dest.pub.init_destination = jr_dest_init;
    enc->dest.pub.empty_output_buffer = jr_dest_grow;
    enc->dest.pub.term_destination = jr_dest_term;
    enc->dest.pub.next_output_byte = enc->dest.data;
    enc->dest.pub.free_in_buffer = enc->dest.capacity;
    enc->cinfo.dest = &enc->dest.pub;

    /* tjCompress2's setCompDefaults (libjpeg-turbo 2.1.5) for TJPF_RGB and flags 0, in its order. */
    struct jpeg_compress_struct *cinfo = &enc->cinfo;
    cinfo->image_width = (JDIMENSION)width;
    cinfo->image_height = (JDIMENSION)height;
    /* RGBX: libjpeg-turbo converts it to YCbCr with the same arithmetic as RGB, the fourth byte
     * skipped, so the coefficients and the file are the same. */
    cinfo->in_color_space = rgbx ? JCS_EXT_RGBX : JCS_RGB;
    cinfo->input_components = rgbx ? 4 : 3;
    jpeg_set_defaults(cinfo);
    jpeg_set_quality(cinfo, quality, TRUE);
    /* Not ISLOW throughout: without TJFLAG_ACCURATEDCT TurboJPEG takes the fast integer DCT
     * below quality 96. */
    cinfo->dct_method = quality >= 96 ? JDCT_ISLOW : JDCT_FASTEST;
    jpeg_set_colorspace(cinfo, JCS_YCbCr);
    cinfo->comp_info[0].h_samp_factor = subsample_444 ? 1 : 2;
    cinfo->comp_info[0].v_samp_factor = subsample_444 ? 1 : 2;
    for (int ci = 1; ci < 3; ci++) {
        cinfo->comp_info[ci].h_samp_factor = 1;
        cinfo->comp_info[ci].v_samp_factor = 1;
    }
    cinfo->restart_in_rows = restart_rows > 0 ? restart_rows : 0;
    jpeg_start_compress(cinfo, TRUE);
    return enc;
}

int jr_encoder_write(jr_encoder *enc, const unsigned char *rgb, size_t stride, int rows) {
    if (enc->failed) return JR_ERROR;
    if (rows < 0 || (JDIMENSION)rows > enc->cinfo.image_height - enc->cinfo.next_scanline) {
        snprintf(enc->err.message, sizeof enc->err.message, "more rows written than the image has");
        enc->failed = 1;
        return JR_ERROR;
    }
    if (setjmp(enc->err.jump)) {
        enc->failed = 1;
        return JR_ERROR;
    }
    JSAMPROW pointers[64];
    while (rows > 0) {
        int chunk = rows < 64 ? rows : 64;
        for (int i = 0; i < chunk; i++) pointers[i] = (JSAMPROW)(rgb + (size_t)i * stride);
        JDIMENSION done = jpeg_write_scanlines(&enc->cinfo, pointers, (JDIMENSION)chunk);
        rgb += (size_t)done * stride;
        rows -= (int)done;
    }
    return JR_OK;
}

int jr_encoder_finish(jr_encoder *enc, const unsigned char **out, size_t *size) {
    if (enc->failed) return JR_ERROR;
    if (enc->finished || enc->cinfo.next_scanline < enc->cinfo.image_height) {
        snprintf(enc->err.message, sizeof enc->err.message,
                 enc->finished ? "already finished" : "not every row was written");
        enc->failed = 1;
        return JR_ERROR;
    }
    if (setjmp(enc->err.jump)) {
        enc->failed = 1;
        return JR_ERROR;
    }
    jpeg_finish_compress(&enc->cinfo);
    enc->finished = 1;
    *out = enc->dest.data;
    *size = enc->dest.size;
    return JR_OK;
}

const char *jr_encoder_message(const jr_encoder *enc) { return enc->err.message; }

void jr_encoder_close(jr_encoder *enc) {
    if (!enc) return;
    jpeg_destroy_compress(&enc->cinfo);
    free(enc->dest.data);
    free(enc);
}
