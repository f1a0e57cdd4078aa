#include "png_rows.h"

#include <errno.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <png.h>

/* Bytes gathered before a write(2) to the file: libpng hands its output over a chunk header, a
 * chunk's data (8 KiB of IDAT) and a CRC at a time, so writing each piece straight through
 * would be three system calls every 8 KiB. */
#define PR_FILE_BUFFER (256 * 1024)

struct pr_writer {
    png_structp png;
    png_infop info;
    int fd; /* -1: memory */
    /* Memory: the file so far. File: the bytes not yet written to it. */
    unsigned char *data;
    size_t size, capacity;
    size_t written; /* bytes written to the file */
    int write_errno;
    int height, next_row, failed, finished;
    char message[256];
};

/* libpng's error_fn must not return: it keeps the message and longjmps back to the setjmp of
 * whichever pr_ function is running. */
static void pr_error(png_structp png, png_const_charp message) {
    pr_writer *w = (pr_writer *)png_get_error_ptr(png);
    snprintf(w->message, sizeof w->message, "%s", message);
    png_longjmp(png, 1);
}

/* Warnings (an out-of-range value libpng corrects) say nothing about the pixels we write. */
static void pr_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void pr_fail_errno(pr_writer *w, int error) {
    w->write_errno = error ? error : EIO;
    png_error(w->png, strerror(w->write_errno));
}

/* Writes `length` bytes to the file, all of them, or fails with the system's reason. */
static void pr_write_all(pr_writer *w, const unsigned char *bytes, size_t length) {
    size_t done = 0;
    while (done < length) {
        ssize_t n = write(w->fd, bytes + done, length - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            pr_fail_errno(w, errno);
        }
        if (n == 0) pr_fail_errno(w, EIO);
        done += (size_t)n;
    }
    w->written += length;
}

/* Writes out what the buffer holds. */
static void pr_drain(pr_writer *w) {
    pr_write_all(w, w->data, w->size);
    w->size = 0;
}

static void pr_write_data(png_structp png, png_bytep bytes, size_t length) {
    pr_writer *w = (pr_writer *)png_get_io_ptr(png);
    if (w->fd >= 0) {
        if (w->size + length > w->capacity) pr_drain(w);
        /* Larger than the whole buffer (a big chunk): straight through. */
        if (length > w->capacity) {
            pr_write_all(w, bytes, length);
            return;
        }
    } else if (w->size + length > w->capacity) {
        size_t capacity = w->capacity;
        while (capacity < w->size + length) capacity *= 2;
        unsigned char *data = realloc(w->data, capacity);
        if (!data) png_error(png, "out of memory");
        w->data = data;
        w->capacity = capacity;
    }
    memcpy(w->data + w->size, bytes, length);
    w->size += length;
}

/* libpng flushes only when asked to (png_set_flush, png_write_flush), which we never do. */
static void pr_flush(png_structp png) { (void)png; }

static void pr_copy_message(const char *message, char *err, size_t err_size) {
    if (err && err_size > 0) snprintf(err, err_size, "%s", message);
}

pr_writer *pr_writer_open(int fd, int width, int height, int has_alpha, int level, int filters,
                          char *err, size_t err_size) {
    if (width < 1 || height < 1 || width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX) {
        pr_copy_message("image size outside what libpng writes", err, err_size);
        return NULL;
    }
    if (level < 0 || level > 9 || (filters & ~PR_FILTER_ALL) != 0 || (filters & PR_FILTER_ALL) == 0) {
        pr_copy_message("compression level or filters out of range", err, err_size);
        return NULL;
    }
    pr_writer *w = calloc(1, sizeof *w);
    if (!w) {
        pr_copy_message("out of memory", err, err_size);
        return NULL;
    }
    w->fd = fd;
    w->height = height;
    /* Memory: about what a photo compresses to, doubled as needed. */
    w->capacity = fd >= 0 ? PR_FILE_BUFFER : (size_t)width * (size_t)height + 65536;
    w->data = malloc(w->capacity);
    w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w, pr_error, pr_warning);
    if (w->png) w->info = png_create_info_struct(w->png);
    if (!w->data || !w->png || !w->info) {
        pr_copy_message("out of memory", err, err_size);
        pr_writer_close(w);
        return NULL;
    }
    if (setjmp(png_jmpbuf(w->png))) {
        pr_copy_message(w->message, err, err_size);
        pr_writer_close(w);
        return NULL;
    }
    png_set_write_fn(w->png, w, pr_write_data, pr_flush);
    png_set_IHDR(w->png, w->info, (png_uint_32)width, (png_uint_32)height, 8,
                 has_alpha ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_BASE, PNG_FILTER_TYPE_BASE);
    png_set_compression_level(w->png, level);
    png_set_filter(w->png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(w->png, w->info);
    return w;
}

static int pr_refuse(pr_writer *w, const char *message) {
    snprintf(w->message, sizeof w->message, "%s", message);
    w->failed = 1;
    return PR_ERROR;
}

int pr_writer_chunk(pr_writer *w, const char *type, const unsigned char *data, size_t length) {
    if (w->failed) return PR_ERROR;
    if (w->next_row > 0 || w->finished) return pr_refuse(w, "a chunk after the first row");
    if (strlen(type) != 4) return pr_refuse(w, "a chunk type is 4 letters");
    if (setjmp(png_jmpbuf(w->png))) {
        w->failed = 1;
        return PR_ERROR;
    }
    png_write_chunk(w->png, (png_const_bytep)type, data, length);
    return PR_OK;
}

int pr_writer_write(pr_writer *w, const unsigned char *pixels, size_t stride, int rows) {
    if (w->failed) return PR_ERROR;
    if (rows < 0 || rows > w->height - w->next_row) return pr_refuse(w, "more rows written than the image has");
    if (setjmp(png_jmpbuf(w->png))) {
        w->failed = 1;
        return PR_ERROR;
    }
    for (int i = 0; i < rows; i++) png_write_row(w->png, pixels + (size_t)i * stride);
    w->next_row += rows;
    return PR_OK;
}

int pr_writer_finish(pr_writer *w, const unsigned char **out, size_t *size) {
    if (w->failed) return PR_ERROR;
    if (w->finished || w->next_row < w->height)
        return pr_refuse(w, w->finished ? "already finished" : "not every row was written");
    if (setjmp(png_jmpbuf(w->png))) {
        w->failed = 1;
        return PR_ERROR;
    }
    png_write_end(w->png, NULL);
    if (w->fd >= 0) pr_drain(w);
    w->finished = 1;
    *out = w->fd >= 0 ? NULL : w->data;
    *size = w->fd >= 0 ? w->written : w->size;
    return PR_OK;
}

const char *pr_writer_message(const pr_writer *w) { return w->message; }

int pr_writer_errno(const pr_writer *w) { return w->write_errno; }

void pr_writer_close(pr_writer *w) {
    if (!w) return;
    if (w->png) png_destroy_write_struct(&w->png, w->info ? &w->info : NULL);
    free(w->data);
    free(w);
}
