#!/usr/bin/env bash
# Tests a package Scripts/package.sh made, as a user would meet it, in a fresh container of the
# package's Debian release (debian:RELEASE-slim, or one made with mmdebstrap: see
# Scripts/container/engine.sh): installs the .deb with apt (which brings its Depends from that
# release), then, with no Swift toolchain on PATH and an empty environment, checks
# `galleryssg --version`, runs `galleryssg init && galleryssg build` in a folder that holds only
# photos, and builds the sample site. `make package-test` runs it for this machine's release
# (RELEASE=trixie for Debian 13); too slow to be part of `swift test` (the static release build
# alone takes over ten minutes).
#
#   Scripts/test-package.sh [dist/galleryssg_VERSION+debN_amd64.deb]
#   Scripts/test-package.sh --here DEB      the same on this system, as root (removes the package after)
set -euo pipefail
cd "$(dirname "$0")/.."

version=$(sed -n 's/^ *static let number = "\(.*\)"$/\1/p' Sources/galleryssg/Version.swift)
here=0
if [ "${1:-}" = --here ]; then here=1; shift; fi
if [ $# -eq 0 ]; then
    . /etc/os-release
    deb=dist/galleryssg_${version}+deb${VERSION_ID%%.*}_amd64.deb
else
    deb=$1
fi
[ -f "$deb" ] || { echo "test-package: $deb not found; run make package first" >&2; exit 1; }

if [ "$here" = 0 ]; then
    case "$deb" in
        *+deb12_*) release=bookworm ;;
        *+deb13_*) release=trixie ;;
        *) echo "test-package: $deb names no Debian release (+deb12 or +deb13)" >&2; exit 1 ;;
    esac
    . Scripts/container/engine.sh
    base=$(base_image "$release")
    echo "test-package: installing $deb in a fresh $base container"
    exec "$container_engine" run --rm -v "$PWD:/src:ro" -w /src "$base" \
        bash -c 'apt-get update -qq && Scripts/test-package.sh --here "$0"' "$deb"
fi
[ "$(id -u)" -eq 0 ] || { echo "test-package: run as root (it installs and removes the package)" >&2; exit 1; }
if dpkg-query -W galleryssg >/dev/null 2>&1; then
    echo "test-package: galleryssg is installed already; remove it first (apt-get remove galleryssg)" >&2
    exit 1
fi

fail() { echo "test-package: FAIL: $*" >&2; exit 1; }
step() { echo "test-package: $*"; }

work=$(mktemp -d)
cleanup() {
    step "removing the package"
    apt-get remove -y -qq galleryssg >/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

step "installing $deb"
DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq "./$deb" >/dev/null
[ "$(command -v galleryssg)" = /usr/bin/galleryssg ] || fail "galleryssg is not /usr/bin/galleryssg"
dpkg-deb -f "$deb" Depends

# What the user has: /usr/bin and /bin, a home, nothing else (no swift, no /opt/swift libraries).
run() { (cd "$work/site" && env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$@"); }
mkdir -p "$work/home" "$work/site/photos/album"
if run sh -c 'command -v swift'; then fail "swift is on the test PATH"; fi
if ldd /usr/bin/galleryssg | grep -E 'libswift|libFoundation|libdispatch|not found'; then
    fail "the installed binary needs the libraries above"
fi

# --version: the version in Version.swift and the commit the package says it was built from.
built_from=$(dpkg-deb -f "$deb" Description | sed -n 's/.*Built from commit \([0-9a-f]*\(-dirty\)\{0,1\}\)\..*/\1/p')
expected="galleryssg $version (commit $built_from)"
got=$(run galleryssg --version)
step "--version: $got"
[ "$got" = "$expected" ] || fail "--version printed '$got', expected '$expected'"
if command -v git >/dev/null; then
    git cat-file -e "${built_from%-dirty}^{commit}" 2>/dev/null || fail "commit $built_from is not in this repository"
    [ "${built_from%-dirty}" = "$(git rev-parse --short=7 HEAD)" ] || step "note: the package was built from $built_from, HEAD is $(git rev-parse --short=7 HEAD)"
fi

# A folder holding only photos: two at the top, one in an album, and a camera raw (DNG) that only
# LibRaw can decode, whose API differs between the releases' versions.
cp Samples/photos/Kite.jpg Samples/photos/Path.jpg "$work/site/photos/"
cp Samples/photos/FallenLeaf.jpg Tests/Fixtures/raw/lone.dng "$work/site/photos/album/"
step "galleryssg init"
run galleryssg init
step "galleryssg build"
run galleryssg build

site="$work/site/public"
[ -f "$site/index.html" ] || fail "no public/index.html"
photo_pages=$(find "$site/photos" -mindepth 2 -maxdepth 2 -name index.html | wc -l)
jpegs=$(find "$site" -name '*.jpg' | wc -l)
step "built: $photo_pages photo pages, $jpegs JPEG files, $(find "$site" -type f | wc -l) files in all"
[ "$photo_pages" -eq 4 ] || fail "expected 4 photo pages (the raw's too), found $photo_pages"
[ "$jpegs" -gt 3 ] || fail "expected resized JPEGs, found $jpegs"
grep -q 'album' "$site/index.html" || fail "the index does not link the album"

# The sample site (site-config.json and Samples/), copied out of the read-only clone.
mkdir -p "$work/sample"
cp -R site-config.json Samples "$work/sample/"
step "building the sample site"
(cd "$work/sample" && env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 galleryssg build --quiet)
sample_pages=$(find "$work/sample/public/photos" -mindepth 2 -maxdepth 2 -name index.html | wc -l)
step "sample: $sample_pages photo pages, $(find "$work/sample/public" -type f | wc -l) files"
[ "$sample_pages" -eq 15 ] || fail "expected the sample's 15 photo pages, found $sample_pages"
. /etc/os-release
step "PASS on $PRETTY_NAME"
