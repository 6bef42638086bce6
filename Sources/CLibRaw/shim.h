// LibRaw's C API, thread-safe build (libraw_r): each decode has its own libraw_data_t.
#include <libraw/libraw.h>

// What differs between LibRaw 0.20 (Debian 12) and 0.21 (Debian 13), decided here at compile time
// so that RAWCodec.swift reads the same on both: 0.21 moved max_raw_memory_mb from params to
// rawparams and dropped the memory-error callback (it reports that failure by its return code).

static inline void galleryssg_libraw_set_max_raw_memory_mb(libraw_data_t *raw, unsigned megabytes) {
#if LIBRAW_VERSION >= LIBRAW_MAKE_VERSION(0, 21, 0)
    raw->rawparams.max_raw_memory_mb = megabytes;
#else
    raw->params.max_raw_memory_mb = megabytes;
#endif
}

static inline void galleryssg_libraw_ignore_data_error(void *data, const char *file, const int offset) {
    (void)data; (void)file; (void)offset;
}

#if LIBRAW_VERSION < LIBRAW_MAKE_VERSION(0, 21, 0)
static inline void galleryssg_libraw_ignore_memory_error(void *data, const char *file, const char *where) {
    (void)data; (void)file; (void)where;
}
#endif

// LibRaw's own handlers print "unknown file: Unexpected end of file" to stderr for a damaged file;
// with these the failure comes back only as a return code.
static inline void galleryssg_libraw_silence(libraw_data_t *raw) {
    libraw_set_dataerror_handler(raw, galleryssg_libraw_ignore_data_error, 0);
#if LIBRAW_VERSION < LIBRAW_MAKE_VERSION(0, 21, 0)
    libraw_set_memerror_handler(raw, galleryssg_libraw_ignore_memory_error, 0);
#endif
}
