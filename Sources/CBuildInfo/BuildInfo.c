#include "BuildInfo.h"

// Weak, so that the definition in the object Scripts/package.sh links in (-Xlinker commit-ID.o)
// replaces it at link time; every other build keeps this one. Clang never inlines a weak
// definition, so the replacement also holds in release builds.
__attribute__((weak)) const char *galleryssg_build_commit(void) {
    return "";
}
