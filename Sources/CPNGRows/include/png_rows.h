#ifndef PNG_ROWS_H
#define PNG_ROWS_H

/* Row-streamed PNG encoding through libpng's own API (png_write_row), to memory or to an open
 * file.
 *
 * libpng reports errors by longjmp-ing out of its error handler, which Swift cannot survive, so
 * every libpng call happens inside one of these functions, behind a setjmp. Errors come back as
 * a status code; the message (libpng's text, or the system's for a failed write) is in the
 * handle, or in `err` for open. After an error a handle only accepts close. */

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    PR_OK = 0,
    PR_ERROR = 1 /* libpng error, or a failed write(2): see the message and pr_writer_errno */
};

/* libpng's row filters (png.h's PNG_FILTER_*), one or several: with several libpng picks one
 * per row (the smallest sum of absolute differences). */
enum {
    PR_FILTER_NONE = 0x08,
    PR_FILTER_SUB = 0x10,
    PR_FILTER_UP = 0x20,
    PR_FILTER_AVG = 0x40,
    PR_FILTER_PAETH = 0x80,
    PR_FILTER_ALL = 0xF8
};

typedef struct pr_writer pr_writer;

/* Starts an 8-bit RGB (has_alpha 0) or RGBA (has_alpha 1, not premultiplied) image of
 * width x height, not interlaced, deflated at zlib `level` (0...9) with `filters`: writes the
 * signature and IHDR. `fd` >= 0: the file goes to that open file descriptor as it is made (from
 * its current offset, through a buffer of its own; the caller keeps it open until close);
 * fd < 0: to memory (pr_writer_finish hands the bytes over). Returns NULL with `err`
 * (NUL-terminated, at most err_size bytes) set on failure. */
pr_writer *pr_writer_open(int fd, int width, int height, int has_alpha, int level, int filters,
                          char *err, size_t err_size);

/* Writes one chunk: `type` (4 ASCII letters) and `length` bytes of data, with its length and CRC.
 * Only between open and the first row: the chunks then follow IHDR in the order written. */
int pr_writer_chunk(pr_writer *w, const char *type, const unsigned char *data, size_t length);

/* Compresses the next `rows` rows (3 or 4 bytes a pixel, as opened), `stride` bytes apart. */
int pr_writer_write(pr_writer *w, const unsigned char *pixels, size_t stride, int rows);

/* After every row is written: writes IEND and, for a file, whatever the buffer still holds.
 * Memory: *out is the whole file, owned by the writer and valid until close. File: *out is NULL
 * and *size the bytes written to the file. */
int pr_writer_finish(pr_writer *w, const unsigned char **out, size_t *size);

/* The last error's message, "" if none. */
const char *pr_writer_message(const pr_writer *w);

/* The errno of a failed write to the file, 0 when the error was not one (libpng's own, or
 * running out of memory). */
int pr_writer_errno(const pr_writer *w);

/* Frees the writer and its buffers (never closes the file). NULL is ignored. */
void pr_writer_close(pr_writer *w);

#ifdef __cplusplus
}
#endif

#endif
