#ifndef GALLERYSSG_BUILD_INFO_H
#define GALLERYSSG_BUILD_INFO_H

/// The short commit id galleryssg was built from, or "" when the build did not record one.
/// BuildInfo.c defines it weakly, returning ""; Scripts/package.sh links an object whose strong
/// definition returns the commit, so only packaged builds name one.
const char *galleryssg_build_commit(void);

#endif
