#!/usr/bin/env bash
# Benchmarks/resampler-callgrind.sh: instructions of a cold build of a 5-photo slice of the corpus
# under callgrind, in all and in the resampler's own functions, for each binary named.
#
#   bash Benchmarks/resampler-callgrind.sh /work/bin/galleryssg-base .build/release/galleryssg
#
# Instruction counts repeat exactly for the same binary and input whatever else the machine runs,
# so they show what wall time on a shared machine hides. One job (-j 1), the benchmark's settings
# (1600 preview, 400 thumbnail, q80, gridSteps off), every run cold.
# env: CORPUS (default /tmp/corpus), COUNT (photos, 5), WORK (default /tmp/resampler-callgrind).
set -euo pipefail
CORPUS=${CORPUS:-/tmp/corpus} COUNT=${COUNT:-5} WORK=${WORK:-/tmp/resampler-callgrind}
rm -rf "$WORK"; mkdir -p "$WORK/slice/photos"
# The first COUNT photos in album order: 20.4, 15.9, 13.4, 12.2 and 10.7 MP on the corpus of 2026-11-26.
find "$CORPUS" -mindepth 2 -type f -iname '*.jpg' | sort | awk -v n="$COUNT" 'NR <= n' | while read -r f; do
  cp "$f" "$WORK/slice/photos/$(basename "$(dirname "$f")")-$(basename "$f")"
done
for bin in "$@"; do
  name=$(basename "$(dirname "$(readlink -f "$bin")")")-$(basename "$bin")
  run="$WORK/$name"; mkdir -p "$run"
  cat > "$run/conf.json" <<JSON
{ "title": "callgrind", "pageSize": 24, "state": "$run/state",
  "source": { "type": "folder", "path": "$WORK/slice" },
  "images": { "thumbnail": 400, "preview": 1600, "widths": [], "quality": 80, "publishOriginals": false, "gridSteps": false } }
JSON
  bash "$(dirname "$0")/valgrind-ready.sh" "$bin" "$run"   # a copy valgrind 3.19 can run
  LD_PRELOAD="$run/sigsuspend.so" valgrind --tool=callgrind --callgrind-out-file="$run/callgrind.out" "$run/nodebug/galleryssg" build -q -j 1 -c "$run/conf.json" -o "$run/site" 2> "$run/valgrind.txt"
  total=$(callgrind_annotate "$run/callgrind.out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
  # The resampler's own instructions: the self counts of every function of Resampler, FilterTable,
  # EvenPairedTaps and FixedCurve (the kernels, the weight tables, the transfer curves; a binary
  # before 2026-11-26's night has no EvenPairedTaps, which then counts 0). Not an inclusive count:
  # since 2026-11-26 (8a7f021) the largest size is resampled as the JPEG decodes, so the decoder's
  # row callbacks run inside Resampler's entry points and an inclusive count would hold the decode.
  resize=$(callgrind_annotate --threshold=100 "$run/callgrind.out" | awk '
    { gsub(",", "", $1) }
    /\$s14GalleryImaging(9ResamplerO|11FilterTableV|14EvenPairedTapsV|10FixedCurveV)/ { own += $1 }
    END { printf "%.0f\n", own }')
  echo "$bin: $total instructions in all; the resampler's own $resize, $(awk -v r="$resize" -v t="$total" 'BEGIN { printf "%.1f", 100 * r / t }') %"
done
