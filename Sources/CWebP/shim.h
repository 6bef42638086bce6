#include <webp/encode.h>
#include <webp/decode.h>
#include <webp/demux.h>
