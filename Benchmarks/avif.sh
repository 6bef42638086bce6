#!/usr/bin/env bash
# Benchmarks/avif.sh: AVIF derivatives against the JPEG and WebP ones: bytes at the configured
# quality, bytes at equal quality (SSIM on luma, and SSIMULACRA 2), and encode CPU per photo.
#
#   Benchmarks/avif.sh             build galleryssg in release mode, build the photos folder cold
#                                  three times (JPEG only, + WebP, + AVIF) and compare CPU and bytes,
#                                  then build the 1600 px previews at several qualities and compare
#                                  each format's bytes where its quality matches the JPEG's
#
# env: PHOTOS (default Samples/photos: 15 of the corpus's Debian wallpapers, 1.3-20 MP; any folder
#      of photos, such as a tier of make-corpus.sh's corpus, /tmp/corpus/b-12mp), OUT (/tmp/avif-bench),
#      QUALITY (82, the default images.quality), QUALITIES ("60 70 82 90 95": the curve), JOBS (2),
#      S2 (1: also score SSIMULACRA 2 when the Python package is importable), PYTHON (python3 with
#      numpy, scipy and Pillow 11.3+ for AVIF decoding; `pip install pillow numpy scipy ssimulacra2`).
# The reference for every score is the same derivative at JPEG quality 100 (4:2:0): near-lossless
# luma, made by the same decode and resampler as the files measured, so only compression differs.
# The speed sweep (SPEEDS="4 6 8", "" skips it) encodes each reference preview with Benchmarks/
# avif-encode.c, libheif with HEIFCodec.encodeAVIF's settings but the speed, and reports CPU and bytes.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
PHOTOS=$(cd "${PHOTOS:-$HERE/../Samples/photos}" && pwd)
OUT=${OUT:-/tmp/avif-bench} QUALITY=${QUALITY:-82} QUALITIES=${QUALITIES:-"60 70 82 90 95"} JOBS=${JOBS:-2}
PYTHON=${PYTHON:-python3} SPEEDS=${SPEEDS-"4 6 8"}
# The AV1 quality HEIFCodec.avifQuality(forJPEG:) gives QUALITY, for the speed sweep.
AVIF_QUALITY=${AVIF_QUALITY:-$((QUALITY - 19))}
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian: time)" >&2; exit 1; }
"$PYTHON" -c "from PIL import features; assert features.check('avif')" 2>/dev/null \
  || { echo "$PYTHON needs numpy, scipy and a Pillow that reads AVIF (pip install pillow numpy scipy ssimulacra2)" >&2; exit 1; }
if [ -z "${GALLERYSSG:-}" ]; then
  (cd "$HERE/.." && swift build -c release --product galleryssg >/dev/null)
  GALLERYSSG="$HERE/../.build/release/galleryssg"
fi
mkdir -p "$OUT"
N=$(find "$PHOTOS" -maxdepth 1 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | wc -l)
echo "photos: $N in $PHOTOS; quality $QUALITY; jobs $JOBS; $(nproc) cores; $(date -u +%F)"

# site NAME IMAGES-JSON: a cold build of the photos with these image settings; prints CPU seconds.
site() {
  local dir="$OUT/$1"
  rm -rf "$dir"; mkdir -p "$dir"; ln -s "$PHOTOS" "$dir/photos"
  printf '{"title": "AVIF bench", "source": {"type": "folder", "path": "photos"}, "images": %s}\n' "$2" > "$dir/site-config.json"
  (cd "$dir" && /usr/bin/time -f "%U %S" -o "$dir/time.txt" "$GALLERYSSG" build -q -j "$JOBS" >/dev/null)
  awk '{print $1 + $2}' "$dir/time.txt"
}

# 1. Every size the default settings make, at the configured quality.
cpu_jpeg=$(site full-jpeg "{\"quality\": $QUALITY, \"publishOriginals\": false}")
cpu_webp=$(site full-webp "{\"quality\": $QUALITY, \"publishOriginals\": false, \"webp\": true}")
cpu_avif=$(site full-avif "{\"quality\": $QUALITY, \"publishOriginals\": false, \"avif\": true}")

# 2. The previews alone (1600 px long edge), at each quality of the curve and at 100 for the reference.
for q in 100 $QUALITIES; do
  site "curve-$q" "{\"quality\": $q, \"publishOriginals\": false, \"thumbnail\": 1600, \"preview\": 1600, \"widths\": [], \"gridSteps\": false, \"webp\": true, \"avif\": true}" >/dev/null
done

# 3. libaom's speed against CPU and bytes, on the reference previews.
if [ -n "$SPEEDS" ]; then
  cc -O2 -o "$OUT/avif-encode" "$HERE/avif-encode.c" -lheif
fi

"$PYTHON" "$HERE/avif_compare.py" --out "$OUT" --photos "$N" --quality "$QUALITY" --qualities $QUALITIES \
  --cpu "$cpu_jpeg" "$cpu_webp" "$cpu_avif" --speeds $SPEEDS --avif-quality "$AVIF_QUALITY" --s2 "${S2:-1}"
