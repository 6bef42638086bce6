#include "JPEGRows.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

struct gssg_jpeg_rows {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr error;
    jmp_buf jump;
    int started;
    int failed;
    int warned;
    unsigned char *spare;   // a row for gssg_jpeg_rows_finish to decode into; freed by close
    char message[JMSG_LENGTH_MAX];
};

static void keep_message(j_common_ptr info) {
    gssg_jpeg_rows *rows = (gssg_jpeg_rows *)info->client_data;
    (*info->err->format_message)(info, rows->message);
}

static void fail(j_common_ptr info) {
    gssg_jpeg_rows *rows = (gssg_jpeg_rows *)info->client_data;
    keep_message(info);
    rows->failed = 1;
    longjmp(rows->jump, 1);
}

/// libjpeg's own emit_message prints only the first warning (level -1); it calls keep_message for it.
static void note(j_common_ptr info, int level) {
    gssg_jpeg_rows *rows = (gssg_jpeg_rows *)info->client_data;
    if (level < 0) {
        if (info->err->num_warnings == 0) keep_message(info);
        info->err->num_warnings++;
        rows->warned = 1;
    }
}

gssg_jpeg_rows *gssg_jpeg_rows_open(const unsigned char *data, unsigned long size, int width, int height, int cmyk) {
    gssg_jpeg_rows *rows = calloc(1, sizeof(gssg_jpeg_rows));
    if (!rows) return NULL;
    rows->info.err = jpeg_std_error(&rows->error);
    rows->error.error_exit = fail;
    rows->error.emit_message = note;
    rows->error.output_message = keep_message;
    rows->info.client_data = rows;
    if (setjmp(rows->jump)) return rows;
    jpeg_create_decompress(&rows->info);
    rows->started = 1;
    jpeg_mem_src(&rows->info, data, size);
    jpeg_read_header(&rows->info, TRUE);
    rows->info.out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    rows->info.dct_method = JDCT_ISLOW;
    // The scale TurboJPEG's tjDecompress2 was given for this size: n/8, the largest n that gives it
    // (JPEGCodec.scaling keeps the first factor of TurboJPEG's list, largest first, of the least pixels).
    for (int n = 8; n >= 1; n--) {
        rows->info.scale_num = (unsigned int)n;
        rows->info.scale_denom = 8;
        jpeg_calc_output_dimensions(&rows->info);
        if ((int)rows->info.output_width == width && (int)rows->info.output_height == height) break;
    }
    if ((int)rows->info.output_width != width || (int)rows->info.output_height != height
        || rows->info.out_color_components != (cmyk ? 4 : 3)) {
        snprintf(rows->message, sizeof rows->message, "no DCT scaling gives %dx%d %s", width, height, cmyk ? "CMYK" : "RGB");
        rows->failed = 1;
        return rows;
    }
    jpeg_start_decompress(&rows->info);
    return rows;
}

/// Decodes up to `count` rows; the caller has set the jump.
static int read_rows(gssg_jpeg_rows *rows, unsigned char *out, int count) {
    int done = 0;
    size_t stride = (size_t)rows->info.output_width * (size_t)rows->info.out_color_components;
    while (done < count && rows->info.output_scanline < rows->info.output_height) {
        JSAMPROW row = out + (size_t)done * stride;
        done += (int)jpeg_read_scanlines(&rows->info, &row, 1);
    }
    return done;
}

int gssg_jpeg_rows_read(gssg_jpeg_rows *rows, unsigned char *out, int count) {
    if (rows->failed) return -1;
    if (setjmp(rows->jump)) return -1;
    return read_rows(rows, out, count);
}

int gssg_jpeg_rows_finish(gssg_jpeg_rows *rows) {
    if (rows->failed) return -1;
    if (setjmp(rows->jump)) return rows->info.output_scanline < rows->info.output_height ? -1 : 1;
    if (rows->info.output_scanline < rows->info.output_height) {
        if (!rows->spare && !(rows->spare = malloc((size_t)rows->info.output_width * (size_t)rows->info.out_color_components))) {
            snprintf(rows->message, sizeof rows->message, "out of memory");
            rows->failed = 1;
            return -1;
        }
        while (rows->info.output_scanline < rows->info.output_height) read_rows(rows, rows->spare, 1);
    }
    jpeg_finish_decompress(&rows->info);
    return 0;
}

int gssg_jpeg_rows_failed(const gssg_jpeg_rows *rows) { return rows->failed; }
int gssg_jpeg_rows_warned(const gssg_jpeg_rows *rows) { return rows->warned; }
const char *gssg_jpeg_rows_message(const gssg_jpeg_rows *rows) { return rows->message; }

void gssg_jpeg_rows_close(gssg_jpeg_rows *rows) {
    if (!rows) return;
    if (rows->started) jpeg_destroy_decompress(&rows->info);
    free(rows->spare);
    free(rows);
}
