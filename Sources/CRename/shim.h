// Linux's renameat2(2), which swaps two paths in one step (RENAME_EXCHANGE). glibc 2.28 and later
// have it, but declare it only under _GNU_SOURCE, which Swift's Glibc module is built without; the
// declaration below is glibc's own. Part of libc: nothing to link.
#include <fcntl.h>

int renameat2(int olddirfd, const char *oldpath, int newdirfd, const char *newpath, unsigned int flags);

/// Atomically exchanges two paths (both must exist); 0 on success, else -1 with errno set.
static inline int galleryssg_exchange(const char *first, const char *second) {
    return renameat2(AT_FDCWD, first, AT_FDCWD, second, 1u << 1 /* RENAME_EXCHANGE */);
}
