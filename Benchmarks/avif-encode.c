/* avif-encode IN.ppm OUT.avif QUALITY SPEED: libheif's AV1 encoder with the settings of
 * HEIFCodec.encodeAVIF (nclx sRGB, 4:2:0, one thread, no alpha, no metadata) but a given speed,
 * for Benchmarks/avif.sh's speed sweep. Prints the CPU seconds the encode took. */
#include <libheif/heif.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void check(struct heif_error e) { if (e.code) { fprintf(stderr, "%s\n", e.message); exit(1); } }

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: avif-encode IN.ppm OUT.avif QUALITY SPEED\n"); return 2; }
    FILE *f = fopen(argv[1], "rb");
    int w, h, max;
    if (!f || fscanf(f, "P6 %d %d %d", &w, &h, &max) != 3 || max != 255) { fprintf(stderr, "not a P6 PPM\n"); return 1; }
    fgetc(f);
    unsigned char *rgb = malloc((size_t)w * h * 3);
    if (fread(rgb, 1, (size_t)w * h * 3, f) != (size_t)w * h * 3) { fprintf(stderr, "short PPM\n"); return 1; }
    fclose(f);
    clock_t start = clock();
    struct heif_image *image;
    check(heif_image_create(w, h, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &image));
    check(heif_image_add_plane(image, heif_channel_interleaved, w, h, 8));
    int stride;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &stride);
    for (int y = 0; y < h; y++) memcpy(plane + (size_t)y * stride, rgb + (size_t)y * w * 3, (size_t)w * 3);
    struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
    nclx->color_primaries = heif_color_primaries_ITU_R_BT_709_5;
    nclx->transfer_characteristics = heif_transfer_characteristic_IEC_61966_2_1;
    nclx->matrix_coefficients = heif_matrix_coefficients_ITU_R_BT_601_6;
    nclx->full_range_flag = 1;
    check(heif_image_set_nclx_color_profile(image, nclx));
    struct heif_context *context = heif_context_alloc();
    struct heif_encoder *encoder;
    check(heif_context_get_encoder_for_format(context, heif_compression_AV1, &encoder));
    check(heif_encoder_set_lossy_quality(encoder, atoi(argv[3])));
    check(heif_encoder_set_parameter_integer(encoder, "speed", atoi(argv[4])));
    check(heif_encoder_set_parameter_integer(encoder, "threads", 1));
    check(heif_encoder_set_parameter_string(encoder, "chroma", "420"));
    struct heif_encoding_options *options = heif_encoding_options_alloc();
    options->save_alpha_channel = 0;
    check(heif_context_encode_image(context, image, encoder, options, NULL));
    check(heif_context_write_to_file(context, argv[2]));
    printf("%.3f\n", (double)(clock() - start) / CLOCKS_PER_SEC);
    return 0;
}
