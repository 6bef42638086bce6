#!/usr/bin/env bash
# scaling.sh — multi-core scaling on this machine: galleryssg -j 1, 2, 4, 8, 16 (up to nproc) against
# Python + Pillow with draft() shrink-on-load in a multiprocessing Pool of the same size, on the same
# photos: N photos of 24 MP (default 160) made from 9 seed photos of the benchmark corpus with grain,
# each turned into a 1600 px preview and a 400 px thumbnail, q80 progressive. Every galleryssg row
# starts from no state. Prints wall, CPU and peak RSS per row, then the report's peak jobs and
# pixels of the widest run.
#
# usage: bash Benchmarks/scaling.sh            (after `swift build -c release`)
# env:   N (photos), JOBS (list, default 1 2 4 … up to nproc), CORPUS (default /tmp/corpus, made by
#        make-corpus.sh when missing), GALLERYSSG (default .build/release/galleryssg)
# Needs: python3 with Pillow and numpy (Debian python3-pil python3-numpy).
# On a many-core machine without Swift, use device-bundle.sh and device-scale.sh instead.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${GALLERYSSG:-$root/.build/release/galleryssg}
[ -x "$bin" ] || { echo "build first: swift build -c release" >&2; exit 1; }
corpus=${CORPUS:-/tmp/corpus}
[ -d "$corpus/a-native" ] || bash "$here/make-corpus.sh" "$corpus" >/dev/null
seeds=$(mktemp -d)
for f in 01-Kleiber 02-seeding 03-Dragonfly 04-sunset 05-Bridge 06-Wine 07-picosdeeuropa 08-life 10-friends; do
  cp "$corpus/a-native/$f.jpg" "$seeds/"
done
if [ -z "${JOBS:-}" ]; then
  JOBS=""; j=1; cores=$(nproc)
  while [ "$j" -le "$cores" ] && [ "$j" -le 16 ]; do JOBS="$JOBS $j"; j=$((j * 2)); done
fi
echo "machine: $(nproc) cores, $(awk '/MemTotal/ {printf "%.0f GB", $2/1048576}' /proc/meminfo); $(date -u +%Y-%m-%d)"
GALLERYSSG="$bin" SEEDS="$seeds" JOBS="$JOBS" N=${N:-160} SCALE_DIR=${SCALE_DIR:-/tmp/scale-local} bash "$here/device-scale.sh"
rm -rf "$seeds"
