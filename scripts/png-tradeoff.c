/* The PNG encoder's size against time, by zlib level and row filter: scripts/png-tradeoff
 * builds this with the encoder's own C shim (Sources/CPNGRows/png_rows.c) and runs it.
 *
 *   png-tradeoff IMAGE.ppm RUNS LEVELS FILTERS
 *
 * IMAGE.ppm: binary PPM (P6, 8-bit RGB), e.g. djpeg's output. LEVELS: comma-separated zlib
 * levels; FILTERS: comma-separated names (none, sub, up, avg, paeth, all). For each level and
 * filter, encodes the image RUNS times to memory, row by row as the renderer does, and prints a
 * tab-separated line: level, filter, bytes, median thread CPU ms, median wall ms. CPU time of
 * the encoding thread is what a shared machine disturbs least. */
#include "png_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
    qsort(values, (size_t)count, sizeof *values, compare);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

static const struct { const char *name; int flags; } filters[] = {
    {"none", PR_FILTER_NONE}, {"sub", PR_FILTER_SUB}, {"up", PR_FILTER_UP},
    {"avg", PR_FILTER_AVG}, {"paeth", PR_FILTER_PAETH}, {"all", PR_FILTER_ALL},
};

int main(int argc, char **argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: png-tradeoff IMAGE.ppm RUNS LEVELS FILTERS\n");
        return 64;
    }
    FILE *f = fopen(argv[1], "rb");
    int width, height, maxval;
    if (!f || fscanf(f, "P6 %d %d %d", &width, &height, &maxval) != 3 || maxval != 255 || fgetc(f) == EOF) {
        fprintf(stderr, "%s: not an 8-bit binary PPM\n", argv[1]);
        return 65;
    }
    size_t stride = (size_t)width * 3;
    unsigned char *pixels = malloc(stride * (size_t)height);
    if (!pixels || fread(pixels, stride, (size_t)height, f) != (size_t)height) {
        fprintf(stderr, "%s: short read\n", argv[1]);
        return 65;
    }
    fclose(f);
    int runs = atoi(argv[2]);
    double *cpu = malloc(sizeof(double) * (size_t)runs), *wall = malloc(sizeof(double) * (size_t)runs);
    char levels[256];
    snprintf(levels, sizeof levels, "%s", argv[3]);
    for (char *level = strtok(levels, ","); level; level = strtok(NULL, ",")) {
        char names[256];
        snprintf(names, sizeof names, "%s", argv[4]);
        char *save = NULL;
        for (char *name = strtok_r(names, ",", &save); name; name = strtok_r(NULL, ",", &save)) {
            int flags = 0;
            for (size_t i = 0; i < sizeof filters / sizeof *filters; i++)
                if (strcmp(filters[i].name, name) == 0) flags = filters[i].flags;
            if (!flags) {
                fprintf(stderr, "unknown filter %s\n", name);
                return 64;
            }
            size_t bytes = 0;
            for (int run = 0; run < runs; run++) {
                double c0 = now_ms(CLOCK_THREAD_CPUTIME_ID), w0 = now_ms(CLOCK_MONOTONIC);
                char err[256];
                pr_writer *w = pr_writer_open(-1, width, height, 0, atoi(level), flags, err, sizeof err);
                const unsigned char *out;
                if (!w || pr_writer_write(w, pixels, stride, height) != PR_OK || pr_writer_finish(w, &out, &bytes) != PR_OK) {
                    fprintf(stderr, "encoding failed: %s\n", w ? pr_writer_message(w) : err);
                    return 70;
                }
                pr_writer_close(w);
                cpu[run] = now_ms(CLOCK_THREAD_CPUTIME_ID) - c0;
                wall[run] = now_ms(CLOCK_MONOTONIC) - w0;
            }
            printf("%s\t%s\t%zu\t%.0f\t%.0f\n", level, name, bytes, median(cpu, runs), median(wall, runs));
            fflush(stdout);
        }
    }
    return 0;
}
