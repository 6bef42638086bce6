#ifndef GALLERYSSG_JPEG_ROWS_H
#define GALLERYSSG_JPEG_ROWS_H

#include <stddef.h>

/// A JPEG being decoded to RGB a few rows at a time, through libjpeg's classic API.
///
/// libjpeg reports a fatal error by calling `error_exit`, which must not return; here it longjmps
/// back into the function of this file that called libjpeg, so no jump ever crosses a Swift frame.
/// Every function below returns normally, with the error's words kept for `gssg_jpeg_rows_message`.
typedef struct gssg_jpeg_rows gssg_jpeg_rows;

/// Starts decoding the `size` bytes at `data` (which must stay valid until close) to RGB (to CMYK,
/// as stored, when `cmyk`), DCT-scaled by the n/8 that gives `width` × `height`. Returns NULL only
/// when out of memory; otherwise check `gssg_jpeg_rows_failed`.
gssg_jpeg_rows *gssg_jpeg_rows_open(const unsigned char *data, unsigned long size, int width, int height, int cmyk);

/// Decodes the next `count` rows into `out` (each `width` × 3 or 4 bytes, one after another) and returns
/// how many it decoded: fewer at the end of the picture, -1 after a fatal error.
int gssg_jpeg_rows_read(gssg_jpeg_rows *rows, unsigned char *out, int count);

/// Decodes any rows left, then reads to the end of the file, as a whole decode does. Returns 0; 1 when
/// libjpeg failed after the last row (junk before the end of the file: the picture is whole, and the
/// error's words are kept); -1 when a fatal error came first.
int gssg_jpeg_rows_finish(gssg_jpeg_rows *rows);

/// Whether a fatal error stopped the decode; the message says which.
int gssg_jpeg_rows_failed(const gssg_jpeg_rows *rows);
/// Whether libjpeg warned (corrupt data it decoded past).
int gssg_jpeg_rows_warned(const gssg_jpeg_rows *rows);
/// libjpeg's words for the fatal error, else for the first warning; "" when neither happened.
const char *gssg_jpeg_rows_message(const gssg_jpeg_rows *rows);

void gssg_jpeg_rows_close(gssg_jpeg_rows *rows);

#endif
