#!/usr/bin/env bash
# Benchmarks/codec-floor.sh: how close a cold build is to its codec floor, counted by callgrind on
# instructions.sh's slice of the corpus: the instructions of galleryssg's cold build against those of
# the codec work alone (codec-floor.c): libjpeg-turbo decoding each photo at the DCT scale the build
# uses (libpng for a PNG, decoded whole as the build does) plus TurboJPEG encoding exactly the
# derivative files the build wrote, at their sizes and settings; nothing else (no resampling,
# hashing, metadata, pages, state). Then where the difference goes, by function.
#
#   bash Benchmarks/codec-floor.sh                                  this worktree's release build
#   GALLERYSSG=/path/to/galleryssg bash Benchmarks/codec-floor.sh   any other binary
#
# The build is anchors.sh's galleryssg job (1600 px preview, 400 px thumbnail, q80 progressive,
# gridSteps off, pages included), cold, one job (-j 1), run under callgrind as the valgrind-ready
# copy (valgrind-ready.sh); its state tells which original each photo folder came from and the
# original's stored size and EXIF orientation, from which the harness works out the DCT scale as
# JPEGCodec.scaling does (the smallest n/8 at least twice the largest derivative, in the stored
# orientation). The harness reads the build's own derivative files back to get the pixels to encode;
# that read is not counted (callgrind collects only inside floor_decode, floor_decode_png and
# floor_encode). Not in the floor: the placeholder (a 24 px q40 JPEG inlined in the pages, a few
# hundred thousand instructions a photo).
# Instruction counts repeat within a fraction of a percent whatever else the machine runs.
#
# env: CORPUS (/tmp/corpus), SLICE (8, as instructions.sh), TOP (25 functions above the floor),
#      KEEP (1 keeps the work folder with both callgrind.out files).
# Needs valgrind, cc, sqlite3, libjpeg62-turbo-dev, libturbojpeg0-dev, libpng-dev (Scripts/setup.sh
# build), swift (swift demangle) for the names.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS=${CORPUS:-/tmp/corpus} SLICE=${SLICE:-8} TOP=${TOP:-25} KEEP=${KEEP:-0}
for tool in valgrind callgrind_annotate cc sqlite3 objcopy; do
  command -v "$tool" >/dev/null || { echo "codec-floor.sh needs $tool" >&2; exit 1; }
done
[ -f "$CORPUS/MANIFEST.tsv" ] || bash "$HERE/make-corpus.sh" "$CORPUS"
if [ -z "${GALLERYSSG:-}" ]; then
  (cd "$HERE/.." && swift build -c release --product galleryssg >/dev/null)
  GALLERYSSG="$HERE/../.build/release/galleryssg"
fi
GALLERYSSG=$(readlink -f "$GALLERYSSG")
W=$(mktemp -d /tmp/codec-floor.XXXXXX)
if [ "$KEEP" = 1 ]; then echo "work folder kept: $W"; else trap 'rm -rf "$W"' EXIT; fi

# ---- the slice, as instructions.sh makes it
bash "$HERE/corpus-slice.sh" "$CORPUS" "$SLICE" "$W/corpus"

# ---- the cold build, as anchors.sh's galleryssg job, under callgrind
bash "$HERE/valgrind-ready.sh" "$GALLERYSSG" "$W/vg"
quality=80
cat > "$W/conf.json" <<JSON
{ "title": "benchmark", "pageSize": 24, "state": "$W/state",
  "source": { "type": "folder", "path": "$W/corpus" },
  "images": { "thumbnail": 400, "preview": 1600, "widths": [], "quality": $quality, "publishOriginals": false, "gridSteps": false } }
JSON
LD_PRELOAD="$W/vg/sigsuspend.so" valgrind --tool=callgrind -q --callgrind-out-file="$W/build.out" \
  "$W/vg/nodebug/galleryssg" build -q -j 1 -c "$W/conf.json" -o "$W/site" > /dev/null

# ---- the floor's jobs: each original at the build's scale, then each derivative file it wrote
sqlite3 -separator $'\t' "$W/state/state.sqlite" \
  "SELECT p.id, p.location, o.format, o.width, o.height, o.orientation FROM photo p
   JOIN original o ON o.hash = p.contentHash ORDER BY p.position" > "$W/photos.tsv"
cc -O2 -o "$W/codec-floor" "$HERE/codec-floor.c" -ljpeg -lturbojpeg -lpng
: > "$W/jobs.tsv"
while IFS=$'\t' read -r id location format width height orientation; do
  folder="$W/site/photos/$id"
  [ -d "$folder" ] || { echo "no folder for photo $id in the site" >&2; exit 1; }
  derivatives=$(find "$folder" -maxdepth 1 -name '*.jpg' ! -name 'original.jpg' | sort)
  # The largest derivative (upright), turned back to the stored orientation for EXIF 5-8.
  read -r dw dh < <(for f in $derivatives; do python3 -c 'import struct, sys
d = open(sys.argv[1], "rb").read(); i = 2
while True:
    marker, length = d[i + 1], struct.unpack(">H", d[i + 2:i + 4])[0]
    if marker in (0xC0, 0xC1, 0xC2): h, w = struct.unpack(">HH", d[i + 5:i + 9]); print(w, h, w * h); break
    i += 2 + length' "$f"; done | sort -k3,3n | tail -n 1)
  [ "$orientation" -ge 5 ] && { t=$dw; dw=$dh; dh=$t; }
  case "$format" in
    jpeg) printf 'jpeg\t%s\t%s\t%s\n' "$location" "$dw" "$dh" >> "$W/jobs.tsv" ;;
    png) printf 'png\t%s\n' "$location" >> "$W/jobs.tsv" ;;
    *) echo "photo $id is $format: the floor knows JPEG and PNG" >&2; exit 1 ;;
  esac
  for f in $derivatives; do printf 'enc\t%s\n' "$f" >> "$W/jobs.tsv"; done
done < "$W/photos.tsv"
valgrind --tool=callgrind -q --callgrind-out-file="$W/floor.out" \
  --toggle-collect=floor_decode --toggle-collect=floor_decode_png --toggle-collect=floor_encode \
  "$W/codec-floor" "$quality" < "$W/jobs.tsv" > "$W/floor.txt"

# ---- the report
total() { callgrind_annotate "$1" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }'; }
inclusive() {  # inclusive FILE FUNCTION
  callgrind_annotate --inclusive=yes --threshold=100 "$1" \
    | awk -v f="$2" '!found && index($0, ":" f " ") { gsub(",", "", $1); print $1; found = 1 } END { if (!found) print 0 }'
}
build=$(total "$W/build.out") floor=$(total "$W/floor.out")
decode=$(( $(inclusive "$W/floor.out" floor_decode) + $(inclusive "$W/floor.out" floor_decode_png) ))
encode=$(inclusive "$W/floor.out" floor_encode)
photos=$(wc -l < "$W/photos.tsv")
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); galleryssg: $GALLERYSSG (sha256 $(sha256sum "$GALLERYSSG" | cut -c1-12)); $(valgrind --version)"
echo "slice: $photos photos (SLICE=$SLICE of $CORPUS); floor jobs:"
sed 's/^/  /' "$W/floor.txt"
awk -v b="$build" -v f="$floor" -v d="$decode" -v e="$encode" -v n="$photos" 'BEGIN {
  printf "\n| count (%d photos, 1 job) | instructions | per photo |\n|---|---|---|\n", n
  printf "| galleryssg cold build (the process) | %.3f G | %.3f G |\n", b / 1e9, b / n / 1e9
  printf "| codec floor | %.3f G | %.3f G |\n", f / 1e9, f / n / 1e9
  printf "| … decoding at the build'"'"'s scale | %.3f G | |\n| … encoding the derivatives | %.3f G | |\n", d / 1e9, e / 1e9
  printf "| above the floor | %.3f G | %.3f G |\n", (b - f) / 1e9, (b - f) / n / 1e9
  printf "\nbuild ÷ floor: %.3f×\n", b / f }'
echo
echo "by library (self Ir; the build, then the floor):"
for out in build floor; do
  t=$build; [ "$out" = floor ] && t=$floor
  callgrind_annotate --threshold=100 "$W/$out.out" | awk -v t="$t" -v which="$out" '
    /^ *[0-9,]+ / && /\[[^]]*\] *$/ { n = $1; gsub(",", "", n); obj = $0; sub(/.*\[/, "", obj); sub(/\].*/, "", obj)
      k = split(obj, parts, "/"); by[parts[k]] += n }
    END { for (l in by) if (by[l] > t / 1000) printf "  %-6s %-34s %8.3f G  %5.1f %%\n", which, l, by[l] / 1e9, 100 * by[l] / t }' \
    | sort -k3,3nr
done
echo
echo "the build's top $TOP functions by self Ir (what sits above the floor, and the codec's own):"
callgrind_annotate --threshold=100 "$W/build.out" | swift demangle --simplified | awk -v t="$build" -v top="$TOP" '
  /^ *[0-9,]+ / && !/PROGRAM TOTALS/ && c < top { n = $1; gsub(",", "", n); $1 = ""; printf "  %7.3f G %5.1f %% %s\n", n / 1e9, 100 * n / t, substr($0, 1, 150); c++ }'
echo
# The same build split into the per-photo work, which runs in parallel (one photo a job), and the
# rest (start, folder scan, pages, state: serial, or parallel only by chunks of 128 pages), by the
# inclusive counts of the per-photo work's synchronous entry points (scaling.sh serial uses it).
callgrind_annotate --inclusive=yes --threshold=100 "$W/build.out" | swift demangle --simplified > "$W/build-inclusive.txt"
perphoto=0
for part in 'ImageProcessor.render(_:encoding:)' 'static ImageProcessor.readHeaders(' 'static CacheKey.sha256('; do
  n=$(grep -m 1 -F -- "$part" "$W/build-inclusive.txt" | awk '{ gsub(",", "", $1); print $1 }')
  printf '  per photo: %-40s %8.3f G\n' "$part" "$(awk -v n="${n:-0}" 'BEGIN { print n / 1e9 }')"
  perphoto=$(( perphoto + ${n:-0} ))
done
awk -v p="$perphoto" -v b="$build" -v n="$photos" 'BEGIN {
  printf "the per-photo work: %.3f G (%.1f %%); the rest: %.3f G (%.1f %%, %.3f G a photo of this slice)\n", p / 1e9, 100 * p / b, (b - p) / 1e9, 100 * (b - p) / b, (b - p) / n / 1e9 }'
