#!/usr/bin/env bash
# Benchmarks/container.sh: what the container image costs against the same binary run natively.
#
#   Benchmarks/container.sh        the image's size (on disk, and gzip-compressed as a pull moves
#                                  it), then with hyperfine: a cold build of the sample site (no
#                                  state, no output) natively and in the image, a no-op rebuild
#                                  each way, and `--version` each way (the container's start)
#
# Needs the image (make image) and the .deb it was made from in dist/; the native binary is that
# .deb's, unpacked, so both sides run the same bytes. env: IMAGE (galleryssg:latest), RUNS (10),
# OUT (/tmp/container-bench). Uses the engine Scripts/container/engine.sh picks (podman here).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/.."
. Scripts/container/engine.sh
IMAGE=${IMAGE:-galleryssg:latest} RUNS=${RUNS:-10} OUT=${OUT:-/tmp/container-bench}
command -v hyperfine >/dev/null || { echo "needs hyperfine (Debian: hyperfine)" >&2; exit 1; }
version=$(sed -n 's/^ *static let number = "\(.*\)"$/\1/p' Sources/galleryssg/Version.swift)
deb=dist/galleryssg_${version}+deb12_amd64.deb
[ -f "$deb" ] || { echo "no $deb; run make image first" >&2; exit 1; }

rm -rf "$OUT" && mkdir -p "$OUT/native" "$OUT/container" "$OUT/deb"
dpkg-deb -x "$deb" "$OUT/deb"
native="$OUT/deb/usr/bin/galleryssg"
for side in native container; do cp -R site-config.json Samples "$OUT/$side/"; done

size=$(engine image inspect "$IMAGE" --format '{{.Size}}')
compressed=$(engine save --format oci-archive "$IMAGE" 2>/dev/null | gzip -6 | wc -c)
binary=$(stat -c %s "$native")
echo "image $IMAGE: $((size / 1000000)) MB on disk, $((compressed / 1000000)) MB gzip-compressed; galleryssg binary $((binary / 1000000)) MB"
echo "engine: $($container_engine --version); $(nproc) cores; $(date -u +%Y-%m-%d)"

run_native="cd $OUT/native && $native build --quiet"
run_container="$container_engine run --rm -v $OUT/container:/site $IMAGE build --quiet"
hyperfine --runs "$RUNS" --export-markdown "$OUT/cold.md" \
    --prepare "rm -rf $OUT/native/public $OUT/native/.galleryssg" -n "native cold" "$run_native" \
    --prepare "rm -rf $OUT/container/public $OUT/container/.galleryssg" -n "container cold" "$run_container"
hyperfine --runs "$RUNS" --export-markdown "$OUT/noop.md" --warmup 1 \
    -n "native no-op" "$run_native" -n "container no-op" "$run_container"
hyperfine --runs "$RUNS" --export-markdown "$OUT/version.md" --warmup 1 \
    -n "native --version" "$native --version" -n "container --version" "$container_engine run --rm $IMAGE --version"
cat "$OUT/cold.md" "$OUT/noop.md" "$OUT/version.md"
