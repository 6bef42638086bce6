// LibRaw's C API, thread-safe build (libraw_r): each decode has its own libraw_data_t.
#include <libraw/libraw.h>
