#!/usr/bin/env bash
# Benchmarks/hdr.sh: what keeping gain maps (images.hdr, the default) costs against SDR only.
#
#   Benchmarks/hdr.sh [BINARY]   makes the three gain-map photos of Tests/Fixtures/hdr/gainmap.py
#                                at 4032x3024 (a phone's 12 MP) plus Apple's iPhone export, then
#                                with hyperfine: a cold build (no state, no output) with
#                                images.hdr true and false; then the bytes of every JPEG size and
#                                original, and of the home page's grid images (what the first
#                                page's <img src> names), each way
#
# Needs numpy and Pillow (the test venv: Scripts/setup.sh test Benchmarks/hdr.sh) and hyperfine.
# env: RUNS (5), OUT (/tmp/hdr-bench). BINARY defaults to .build/release/galleryssg.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
cd "$HERE/.."
BIN=$(realpath "${1:-.build/release/galleryssg}") RUNS=${RUNS:-5} OUT=${OUT:-/tmp/hdr-bench}
command -v hyperfine >/dev/null || { echo "needs hyperfine (Debian: hyperfine)" >&2; exit 1; }
rm -rf "$OUT" && mkdir -p "$OUT/photos"
python3 Tests/Fixtures/hdr/gainmap.py make "$OUT/photos" 4032 3024
cp Tests/Fixtures/hdr/apple_gainmap_new.jpg "$OUT/photos/"
for hdr in true false; do
    mkdir -p "$OUT/$hdr"
    cat > "$OUT/$hdr/site-config.json" <<JSON
{"title": "HDR", "source": {"type": "folder", "path": "../photos"}, "output": "public",
 "images": {"hdr": $hdr}}
JSON
done
echo "$(nproc) cores; $(date -u +%Y-%m-%d); $("$BIN" --version)"
hyperfine --runs "$RUNS" --export-markdown "$OUT/cold.md" \
    --prepare "rm -rf $OUT/true/public $OUT/true/.galleryssg" -n "hdr cold" "cd $OUT/true && $BIN build --quiet" \
    --prepare "rm -rf $OUT/false/public $OUT/false/.galleryssg" -n "sdr cold" "cd $OUT/false && $BIN build --quiet"
for hdr in true false; do
    site="$OUT/$hdr/public"
    sizes=$(find "$site/photos" -name '*.jpg' ! -name original.jpg -printf '%s\n' | awk '{s+=$1} END {print s}')
    originals=$(find "$site/photos" -name original.jpg -printf '%s\n' | awk '{s+=$1} END {print s}')
    grid=$(python3 - "$site" <<'PY'
import re, sys, os
site = sys.argv[1]
html = open(os.path.join(site, "index.html")).read()
names = set(re.findall(r'<img[^>]* src="([^"]+\.jpg)"', html))
print(sum(os.path.getsize(os.path.join(site, n)) for n in names), len(names))
PY
)
    echo "images.hdr $hdr: JPEG sizes $sizes bytes, originals $originals bytes, home grid images (bytes, files) $grid"
done
