#!/usr/bin/env bash
# Builds the container image galleryssg:latest and galleryssg:VERSION from Containerfile, with
# podman (or docker where podman is absent): Debian's base image, the project's .deb for that
# release, ffmpeg, and nothing of a toolchain. `make image` runs it.
#
#   Scripts/image.sh [dist/galleryssg_VERSION+debN_amd64.deb]
#
# Without an argument it takes the .deb of the image's release (bookworm unless RELEASE is set),
# building it first when dist/ has none (Scripts/package.sh, or Scripts/package-in.sh for another
# release than this machine's). The base image is debian:RELEASE-slim from the registry, or made here
# with mmdebstrap where no registry can be reached (Scripts/container/engine.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/container/engine.sh

release=${RELEASE:-bookworm}
version=$(sed -n 's/^ *static let number = "\(.*\)"$/\1/p' Sources/galleryssg/Version.swift)
case "$release" in
    bookworm) debian=12 ;;
    trixie) debian=13 ;;
    *) echo "image: RELEASE must be bookworm or trixie, not $release" >&2; exit 2 ;;
esac
deb=${1:-dist/galleryssg_${version}+deb${debian}_amd64.deb}
if [ ! -f "$deb" ]; then
    . /etc/os-release
    if [ "${VERSION_CODENAME:-}" = "$release" ]; then Scripts/package.sh; else Scripts/package-in.sh "$release"; fi
fi
[ -f "$deb" ] || { echo "image: $deb was not made" >&2; exit 1; }
commit=$(dpkg-deb -f "$deb" Description | sed -n 's/.*Built from commit \([0-9a-f]*\(-dirty\)\{0,1\}\)\..*/\1/p')

base=$(base_image "$release")
echo "image: building galleryssg:$version from $deb (commit $commit) on $base with $container_engine"
engine build --file Containerfile --build-arg BASE="$base" --build-arg DEB="$deb" \
    --build-arg VERSION="$version" --build-arg COMMIT="$commit" \
    --tag "galleryssg:$version" --tag galleryssg:latest .
engine image inspect galleryssg:latest --format '{{.Size}}' | awk '{printf "image: galleryssg:latest is %.0f MB\n", $1 / 1e6}'
