#!/usr/bin/env bash
# Builds the .deb and the tarball for another Debian release than this machine's, in a container of
# that release, with this machine's Swift toolchain mounted read-only (the same compiler for every
# release; the C libraries, and so the package's Depends, are the release's own):
#
#   Scripts/package-in.sh trixie       dist/galleryssg_VERSION+deb13_amd64.deb and its tarball
#   Scripts/package-in.sh bookworm     the same for Debian 12, in a clean container
#
# `make package RELEASE=trixie` runs it. The container is localhost/galleryssg-builder:RELEASE-DIGEST, made
# once from debian:RELEASE-slim (Scripts/container/engine.sh) with the -dev packages Scripts/setup.sh
# names and what the toolchain itself needs there (libncurses6, libedit2, libxml2, libcurl4, gcc's C
# and C++ runtimes). Inside, Scripts/package.sh runs on this clone, in .build-package-RELEASE/.
# Git URL rewrites of this machine (url.*.insteadOf, e.g. an offline package mirror) are handed in,
# with the folders they name.
set -euo pipefail
cd "$(dirname "$0")/.."
. Scripts/container/engine.sh

release=${1:?usage: Scripts/package-in.sh RELEASE (bookworm or trixie)}
# The toolchain's root (the folder holding usr/bin/swift): SWIFT_TOOLCHAIN, or the swift on PATH's.
if [ -n "${SWIFT_TOOLCHAIN:-}" ]; then
    toolchain=$SWIFT_TOOLCHAIN
else
    swift_bin=$(command -v swift) || { echo "package-in: swift is not on PATH; set SWIFT_TOOLCHAIN" >&2; exit 1; }
    toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift_bin")")")")
fi
[ -x "$toolchain/usr/bin/swift" ] || { echo "package-in: no usr/bin/swift in $toolchain" >&2; exit 1; }
# The builder's Containerfile; its tag carries a digest of it and of the package list, so a change to
# either makes a new builder. libxml2-dev: the static Foundation links libxml2.
containerfile=$(cat <<'CONTAINERFILE'
ARG BASE
FROM ${BASE}
COPY Scripts/setup.sh /tmp/setup.sh
RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        git ca-certificates dpkg-dev binutils gcc g++ libc6-dev libcurl4 libxml2 libxml2-dev libedit2 \
        libncurses6 libsqlite3-0 tzdata $(bash /tmp/setup.sh list build) \
    && rm -rf /var/lib/apt/lists/* /tmp/setup.sh
CONTAINERFILE
)
digest=$( (echo "$containerfile"; Scripts/setup.sh list build) | sha256sum | cut -c1-12)
builder="localhost/galleryssg-builder:$release-$digest"

if ! engine image inspect "$builder" >/dev/null 2>&1; then
    base=$(base_image "$release")
    context=$(mktemp -d)
    trap 'rm -rf "$context"' EXIT
    mkdir -p "$context/Scripts"
    cp Scripts/setup.sh "$context/Scripts/"
    echo "$containerfile" > "$context/Containerfile"
    echo "package-in: making $builder from $base"
    engine build --build-arg BASE="$base" --tag "$builder" "$context"
fi

mounts=(-v "$PWD:/src" -v "$toolchain:$toolchain:ro")
git_env=(-e GIT_CONFIG_COUNT -e GIT_CONFIG_KEY_0=safe.directory -e GIT_CONFIG_VALUE_0='*')
count=1
while read -r key value; do
    from=${key#url.}
    from=${from%.insteadof}
    [ -d "$from" ] && mounts+=(-v "$from:$from:ro")
    git_env+=(-e "GIT_CONFIG_KEY_$count=url.$from.insteadOf" -e "GIT_CONFIG_VALUE_$count=$value")
    count=$((count + 1))
done < <(git config --get-regexp '^url\..*\.insteadof$' || true)
export GIT_CONFIG_COUNT=$count

echo "package-in: building the package for $release in $builder"
engine run --rm "${mounts[@]}" "${git_env[@]}" -e PATH="$toolchain/usr/bin:/usr/sbin:/usr/bin:/sbin:/bin" \
    -w /src "$builder" Scripts/package.sh
