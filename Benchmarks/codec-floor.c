// Benchmarks/codec-floor.c: the codec work of a cold build and nothing else, for codec-floor.sh to
// count under callgrind (only floor_decode, floor_decode_png and floor_encode are collected, with what
// they call; noipa keeps GCC from cloning them under other names, which the toggle would miss).
//
//   codec-floor QUALITY < JOBS
//
// JOBS, one a line, tab-separated:
//   jpeg  ORIGINAL  NEED_WIDTH  NEED_HEIGHT   decode ORIGINAL with libjpeg at the smallest n/8 DCT
//                                             scale that is at least twice NEED in both directions
//                                             (JPEGCodec.scaling and JPEGRows: ISLOW IDCT, RGB out),
//                                             else at 8/8
//   png   ORIGINAL                            decode ORIGINAL whole to 8-bit RGB (libpng's png_image)
//   enc   DERIVATIVE                          encode DERIVATIVE's pixels again as the build encoded
//                                             them: TurboJPEG, QUALITY, 4:2:0, progressive, accurate
//                                             DCT (JPEGCodec.encode); reading the file is not counted
// Prints one line a job: what it did and the sizes, so the script can check them.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>
#include <turbojpeg.h>

static unsigned char *read_file(const char *path, unsigned long *size) {
    FILE *file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    *size = (unsigned long)ftell(file);
    fseek(file, 0, SEEK_SET);
    unsigned char *data = malloc(*size);
    if (!data || fread(data, 1, *size, file) != *size) { fprintf(stderr, "%s: cannot read\n", path); exit(1); }
    fclose(file);
    return data;
}

// The decode the build makes of a JPEG original: libjpeg's scanline API at a DCT scale, RGB, ISLOW.
__attribute__((noinline, noipa)) static unsigned long floor_decode(
    const unsigned char *data, unsigned long size, int need_width, int need_height, int *width, int *height,
    int *scale) {
    struct jpeg_decompress_struct info;
    struct jpeg_error_mgr error;
    info.err = jpeg_std_error(&error);
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    info.out_color_space = JCS_RGB;
    info.dct_method = JDCT_ISLOW;
    *scale = 8;
    for (int n = 1; n <= 8; n++) {
        long w = ((long)info.image_width * n + 7) / 8, h = ((long)info.image_height * n + 7) / 8;
        if (w >= 2L * need_width && h >= 2L * need_height) { *scale = n; break; }
    }
    info.scale_num = (unsigned int)*scale;
    info.scale_denom = 8;
    jpeg_start_decompress(&info);
    size_t stride = (size_t)info.output_width * (size_t)info.output_components;
    unsigned char *pixels = malloc(stride * info.output_height);
    unsigned long sum;
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + stride * info.output_scanline;
        jpeg_read_scanlines(&info, &row, 1);
    }
    *width = (int)info.output_width;
    *height = (int)info.output_height;
    sum = pixels[stride * info.output_height / 2];  // the pixels are used
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    free(pixels);
    return sum;
}

// A PNG original decoded whole to RGB, as PNGCodec does (libpng's simplified API).
__attribute__((noinline, noipa)) static unsigned long floor_decode_png(const unsigned char *data, unsigned long size, int *width,
                                                                int *height) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(&image, data, size)) { fprintf(stderr, "png: %s\n", image.message); exit(1); }
    image.format = PNG_FORMAT_RGB;
    unsigned char *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, NULL, pixels, 0, NULL)) { fprintf(stderr, "png: %s\n", image.message); exit(1); }
    *width = (int)image.width;
    *height = (int)image.height;
    unsigned long sum = pixels[PNG_IMAGE_SIZE(image) / 2];
    free(pixels);
    return sum;
}

// One derivative encoded as JPEGCodec.encode encodes it.
__attribute__((noinline, noipa)) static unsigned long floor_encode(const unsigned char *pixels, int width, int height, int gray,
                                                            int quality) {
    tjhandle handle = tjInitCompress();
    unsigned char *output = NULL;
    unsigned long length = 0;
    if (tjCompress2(handle, pixels, width, 0, height, gray ? TJPF_GRAY : TJPF_RGB, &output, &length,
                    gray ? TJSAMP_GRAY : TJSAMP_420, quality, TJFLAG_PROGRESSIVE | TJFLAG_ACCURATEDCT) != 0) {
        fprintf(stderr, "encode: %s\n", tjGetErrorStr2(handle));
        exit(1);
    }
    tjFree(output);
    tjDestroy(handle);
    return length;
}

int main(int argc, char **argv) {
    if (argc != 2) { fprintf(stderr, "usage: codec-floor QUALITY < JOBS\n"); return 2; }
    int quality = atoi(argv[1]);
    char line[4096];
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        char *kind = strtok(line, "\t"), *path = strtok(NULL, "\t");
        if (!kind || !path) continue;
        unsigned long size = 0;
        unsigned char *data = read_file(path, &size);
        int width = 0, height = 0;
        if (strcmp(kind, "jpeg") == 0) {
            int need_width = atoi(strtok(NULL, "\t")), need_height = atoi(strtok(NULL, "\t")), scale = 8;
            floor_decode(data, size, need_width, need_height, &width, &height, &scale);
            printf("decode %s at %d/8: %dx%d\n", path, scale, width, height);
        } else if (strcmp(kind, "png") == 0) {
            floor_decode_png(data, size, &width, &height);
            printf("decode %s: %dx%d\n", path, width, height);
        } else if (strcmp(kind, "enc") == 0) {
            // The derivative's pixels, read back outside what is counted.
            tjhandle handle = tjInitDecompress();
            int subsampling = 0, colorspace = 0;
            tjDecompressHeader3(handle, data, size, &width, &height, &subsampling, &colorspace);
            int gray = colorspace == TJCS_GRAY;
            unsigned char *pixels = malloc((size_t)width * (size_t)height * (gray ? 1 : 3));
            tjDecompress2(handle, data, size, pixels, width, 0, height, gray ? TJPF_GRAY : TJPF_RGB, TJFLAG_ACCURATEDCT);
            tjDestroy(handle);
            unsigned long bytes = floor_encode(pixels, width, height, gray, quality);
            printf("encode %s: %dx%d%s, %lu bytes (the build's: %lu)\n", path, width, height, gray ? " gray" : "",
                   bytes, size);
            free(pixels);
        } else {
            fprintf(stderr, "unknown job %s\n", kind);
            return 2;
        }
        free(data);
    }
    return 0;
}
