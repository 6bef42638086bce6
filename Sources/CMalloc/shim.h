// glibc's malloc tuning (mallopt, M_ARENA_MAX, M_MMAP_THRESHOLD); part of libc, nothing to link.
#include <malloc.h>
