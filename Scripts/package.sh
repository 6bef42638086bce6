#!/usr/bin/env bash
# Builds galleryssg for installing without a Swift toolchain on the Debian release it runs on
# (12 "bookworm" or 13 "trixie": the C libraries' package names differ, so each needs its own):
#   dist/galleryssg_VERSION+debN_amd64.deb           /usr/bin/galleryssg, depending on the C libraries it links
#   dist/galleryssg-VERSION-debianN-amd64.tar.gz     the binary, README.md, docs/ and INSTALL (those libraries)
# Scripts/package-in.sh RELEASE runs this script in a container of another release (make package
# RELEASE=trixie); Scripts/package-test.sh installs a package into a fresh container of its release.
#
# The Swift runtime and Foundation are linked in statically (--static-swift-stdlib); the C libraries
# stay shared and become the .deb's Depends, worked out by dpkg-shlibdeps from the binary itself.
# The default theme is compiled into the binary (DefaultTheme+Files.swift), so nothing else is
# installed but the manual: README.md and docs/ (the user of a package has no clone to read them
# in), under /usr/share/doc/galleryssg/ in the same layout, so the README's links to docs/ work.
# The build has its own scratch folder, .build-package-RELEASE/, so it never disturbs .build/.
#
# `galleryssg --version` names the commit: this script links in an object whose
# galleryssg_build_commit() returns it, replacing the weak one in Sources/CBuildInfo (see
# Sources/galleryssg/Version.swift). A tree with uncommitted changes to tracked files is "-dirty".
set -euo pipefail
cd "$(dirname "$0")/.."

# The release comes from the system the build runs on; its libraries are what the binary links.
. /etc/os-release
release=${VERSION_CODENAME:?package: /etc/os-release names no release}
debian=${VERSION_ID%%.*}
scratch=.build-package-$release
dist=dist
version=$(sed -n 's/^ *static let number = "\(.*\)"$/\1/p' Sources/galleryssg/Version.swift)
[ -n "$version" ] || { echo "package: no version in Sources/galleryssg/Version.swift" >&2; exit 1; }
arch=$(dpkg --print-architecture)
commit=$(git rev-parse --short=7 HEAD)
git diff --quiet HEAD -- || commit="$commit-dirty"

for tool in dpkg-deb dpkg-shlibdeps strip; do
    command -v "$tool" >/dev/null || { echo "package: $tool is missing (apt-get install dpkg-dev binutils)" >&2; exit 1; }
done

# The commit object's name holds the commit, so a new commit changes the link command and SwiftPM
# links again (it does not look inside the files that -Xlinker names).
mkdir -p "$scratch"
commit_object="$PWD/$scratch/commit-$commit.o"
printf 'const char *galleryssg_build_commit(void) { return "%s"; }\n' "$commit" \
    | clang -x c -c -O2 -fPIC -o "$commit_object" -

echo "package: building galleryssg $version (commit $commit) for Debian $debian ($release), release build, Swift runtime linked statically"
build=(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --product galleryssg
       -Xlinker "$commit_object")
"${build[@]}"
binary="$("${build[@]}" --show-bin-path)/galleryssg"

# No Swift library may be needed at run time: a machine without the toolchain has none.
if ldd "$binary" | grep -E 'libswift|libFoundation|libdispatch|libBlocksRuntime|not found'; then
    echo "package: $binary still needs the libraries above" >&2
    exit 1
fi

# The package's tree is laid out as in a Debian source tree, debian/galleryssg/, because that is
# where dpkg-shlibdeps expects the binaries it analyses.
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
root="$stage/src/debian/galleryssg"
mkdir -p "$root/DEBIAN"
install -D -m 755 "$binary" "$root/usr/bin/galleryssg"
strip --strip-unneeded "$root/usr/bin/galleryssg"
install -D -m 644 README.md "$root/usr/share/doc/galleryssg/README.md"
install -D -m 644 -t "$root/usr/share/doc/galleryssg/docs" docs/*.md docs/*.json
install -D -m 644 -t "$root/usr/share/doc/galleryssg/docs/images" docs/images/*

# dpkg-shlibdeps reads the binary's NEEDED entries, finds each library's package with dpkg -S
# and its minimum version in the shlibs/symbols files: the Depends a Debian maintainer would get.
# It wants a debian/control in the folder it runs in.
printf 'Source: galleryssg\n\nPackage: galleryssg\nArchitecture: any\n' > "$stage/src/debian/control"
depends=$(cd "$stage/src" && dpkg-shlibdeps -O "$root/usr/bin/galleryssg" | sed -n 's/^shlibs:Depends=//p')
[ -n "$depends" ] || { echo "package: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

cat > "$root/DEBIAN/control" <<EOF
Package: galleryssg
Version: $version+deb$debian
Architecture: $arch
Maintainer: galleryssg authors <maintainers@users.noreply.github.com>
Installed-Size: $(du -sk "$root" | cut -f1)
Depends: $depends
Recommends: ffmpeg, libjs-leaflet, libjs-leaflet.markercluster
Section: web
Priority: optional
Description: static photo-gallery site generator
 Builds a static photo gallery (paged grids, photo, album and tag pages,
 search, feed, sitemap) from a folder of photos, a JSON manifest, Flickr,
 500px or Parse. Built from commit $commit.
 .
 Leaflet is recommended for sites with images.showLocation, whose map page
 copies it from /usr/share/javascript/.
EOF

mkdir -p "$dist"
deb="$dist/galleryssg_${version}+deb${debian}_${arch}.deb"
dpkg-deb --root-owner-group --build "$root" "$deb" >/dev/null

# The tarball: the same binary, the manual, and what to install beside it.
tarname="galleryssg-$version-debian$debian-$arch"
mkdir -p "$stage/$tarname"
cp "$root/usr/bin/galleryssg" README.md "$stage/$tarname/"
cp -R "$root/usr/share/doc/galleryssg/docs" "$stage/$tarname/"
cat > "$stage/$tarname/INSTALL" <<EOF
galleryssg $version (commit $commit) for Debian $debian "$release" ($arch)

Copy galleryssg onto your PATH (for example /usr/local/bin). It needs no Swift toolchain, only
these Debian packages:

  sudo apt-get install $(echo "$depends" | sed 's/ ([^)]*)//g; s/,//g')

and, for video clips, Live Photos and motion photos, ffmpeg; for sites with images.showLocation
(the map page), libjs-leaflet libjs-leaflet.markercluster.
EOF
tar -C "$stage" -czf "$dist/$tarname.tar.gz" --owner=0 --group=0 "$tarname"

echo "package: Depends: $depends"
ls -l "$deb" "$dist/$tarname.tar.gz"
