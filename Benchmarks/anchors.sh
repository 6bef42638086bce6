#!/usr/bin/env bash
# anchors.sh — performance anchors for galleryssg (peers doing the same job).
#
# Job per photo (all tools): decode the original, write a ~1600 px long-edge
# "preview" and a ~400 px long-edge "thumbnail", progressive JPEG q80, metadata
# stripped, EXIF orientation applied where the tool supports it; 2 workers.
#
# usage:
#   anchors.sh setup                 install the peers (Debian + PyPI), needs root
#   anchors.sh list                  names of the anchors
#   anchors.sh run NAME              one full pass over $CORPUS into a fresh
#                                    $OUTROOT/NAME (this is the unit to time)
#   anchors.sh prep NAME             untimed preparation (only *-noop needs it)
#   anchors.sh sizes NAME            count and bytes of the outputs of NAME
#   anchors.sh bench [NAME...]       time each NAME with public tools:
#                                    hyperfine (wall, 1 warm-up + $RUNS runs)
#                                    and GNU time -v (CPU, peak RSS) once
#
# env: CORPUS (default /tmp/corpus, made by make-corpus.sh), OUTROOT (default
#      /tmp/anchors-out), JOBS (default 2), RUNS (default 3).
#
# Known quirks, kept as measured (2026-11-21): vipsthumbnail -s 1600x1600
# also enlarges the 2 originals smaller than 1600 px (use '1600x1600>' to
# forbid); ImageMagick's jpeg:size hint decodes those 2 at 2x (libjpeg 16/8
# scaling) before -thumbnail shrinks them to 1600; sigal saves PNG sources
# converted to JPEG with Pillow defaults (baseline, q75), not jpg_options;
# ljt previews are the smallest M/8 scale >= 1600 px (1600-3000 px) and its
# thumbnails an integer box reduction (400-500 px), so it encodes more pixels.
#
# galleryssg runs as two more anchors, timed exactly like the others:
#   galleryssg          the same job (1600 preview + 400 thumbnail, q80, 2 jobs), pages included;
#                       every run cold: its state and any previous site are removed first
#   galleryssg-srcset   the same plus 1200 and 800 srcset widths (compare with vips-srcset)
#   galleryssg-noop     a rebuild with nothing changed (state and site made by `prep`)
# Every galleryssg job has images.gridSteps off: the grid's own sizes between the thumbnail and
# 600 px tall (on by default since 2026-11-24) are no part of the job the peers do. The other
# benchmarks' sites turn them off too, so their figures stay comparable with earlier runs.
# GALLERYSSG names the binary (default: the release build beside this script).
set -euo pipefail

CORPUS=${CORPUS:-/tmp/corpus}
OUTROOT=${OUTROOT:-/tmp/anchors-out}
JOBS=${JOBS:-2}
RUNS=${RUNS:-3}
SELF=$(readlink -f "$0")
CONVERT=/usr/bin/convert-im6.q16   # the real ImageMagick 6 (not any wrapper on PATH)

ANCHORS="galleryssg galleryssg-srcset galleryssg-noop sigal-init sigal-1600 sigal-1600-images sigal-1600-noop sigal-1600-n1
vips-2x vips-cascade vips-srcset magick magick-hint ljt"
GALLERYSSG=${GALLERYSSG:-$(dirname "$SELF")/../.build/release/galleryssg}

galleryssg_conf() {  # galleryssg_conf NAME -> writes $OUTROOT/conf/NAME.json, prints path
  local name=$1 f="$OUTROOT/conf/$1.json" widths="[]"
  mkdir -p "$OUTROOT/conf"
  [ "$name" = galleryssg-srcset ] && widths="[800, 1200]"
  cat > "$f" <<JSON
{ "title": "benchmark", "pageSize": 24, "state": "$OUTROOT/state-$name",
  "source": { "type": "folder", "path": "$CORPUS" },
  "images": { "thumbnail": 400, "preview": 1600, "widths": $widths, "quality": 80, "publishOriginals": false, "gridSteps": false } }
JSON
  echo "$f"
}

# ---------------------------------------------------------------- helpers
# list of input images, one per line, in album order
images() { find "$CORPUS" -mindepth 2 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | sort; }

# the same, largest file first (longest-job-first keeps both workers busy to the end)
images_lpt() { images | xargs -d '\n' stat -c '%s %n' | sort -k1,1nr | cut -d' ' -f2-; }

# emit "ALBUM f1 f2 ... fN" lines: batches of <= $1 files from one album, so one
# vipsthumbnail process handles several photos (its start-up is ~85 ms here);
# heaviest album first, largest files first within it
batches() {
  images | xargs -d '\n' stat -c '%s %n' | awk -v root="$CORPUS/" '
    { sz = $1; path = substr($0, index($0, " ") + 1)
      rel = substr(path, length(root) + 1); split(rel, p, "/")
      n++; S[n] = sz; P[n] = path; A[n] = p[1]; tot[p[1]] += sz }
    END { for (i = 1; i <= n; i++) printf "%d %d %s %s\n", tot[A[i]], S[i], A[i], P[i] }' |
  sort -k1,1nr -k3,3 -k2,2nr | awk -v n="$1" '
    { a = $3; path = $0; for (i = 0; i < 3; i++) path = substr(path, index(path, " ") + 1)
      if (a != cur || k == n) { if (line != "") print line; line = a; k = 0; cur = a }
      line = line " " path; k++ }
    END { if (line != "") print line }'
}

sigal_conf() {  # sigal_conf NAME -> writes $OUTROOT/conf/NAME.py, prints path
  local name=$1 f="$OUTROOT/conf/$1.py"
  mkdir -p "$OUTROOT/conf"
  case "$name" in
    sigal-init)   # what `sigal init` writes (galleria, 800x600, 280x210 crop, q85 default)
      cat > "$f" <<'EOF'
theme = "galleria"
img_size = (800, 600)
thumb_size = (280, 210)
ignore_directories = []
ignore_files = []
EOF
      ;;
    sigal-1600*)  # same job as galleryssg: 1600 preview, 400 thumb (no crop), q80 progressive
      cat > "$f" <<'EOF'
theme = "galleria"
img_size = (1600, 1600)
thumb_size = (400, 400)
thumb_fit = False
img_format = "JPEG"
jpg_options = {"quality": 80, "optimize": True, "progressive": True}
ignore_directories = []
ignore_files = []
EOF
      [ "$name" = sigal-1600-images ] && echo 'write_html = False' >> "$f"
      ;;
  esac
  echo "$f"
}

# ---------------------------------------------------------------- per-batch workers
vips_batch() {  # vips_batch MODE OUTROOT_NAME ALBUM FILES...
  local mode=$1 out=$2 album=$3; shift 3
  local o="$out/$album"; mkdir -p "$o"
  local opt='[Q=80,interlace,strip]'
  case "$mode" in
    2x)       vipsthumbnail -s 1600x1600 -o "$o/%s-1600.jpg$opt" "$@"
              vipsthumbnail -s 400x400   -o "$o/%s-400.jpg$opt"  "$@" ;;
    cascade)  vipsthumbnail -s 1600x1600 -o "$o/%s-1600.jpg$opt" "$@"
              local f b ins=()
              for f in "$@"; do b=$(basename "${f%.*}"); ins+=("$o/$b-1600.jpg"); done
              vipsthumbnail -s 400x400 -o "$o/%s-400.jpg$opt" "${ins[@]}"
              # names come out as NAME-1600-400.jpg: fine for timing
              ;;
    srcset)   # 1600 from the original, then 1200/800/400 from the 1600
              vipsthumbnail -s 1600x1600 -o "$o/%s-1600.jpg$opt" "$@"
              local f b ins=()
              for f in "$@"; do b=$(basename "${f%.*}"); ins+=("$o/$b-1600.jpg"); done
              vipsthumbnail -s 1200x1200 -o "$o/%s-1200.jpg$opt" "${ins[@]}"
              vipsthumbnail -s 800x800   -o "$o/%s-800.jpg$opt"  "${ins[@]}"
              vipsthumbnail -s 400x400   -o "$o/%s-400.jpg$opt"  "${ins[@]}" ;;
  esac
}

magick_one() {  # magick_one HINT(0|1) OUT FILE — one decode, both sizes written
  local hint=$1 out=$2 f=$3
  local album b; album=$(basename "$(dirname "$f")"); b=$(basename "${f%.*}")
  mkdir -p "$out/$album"
  local pre=()
  # jpeg:size=1600x1600 lets libjpeg decode at a reduced 1/2^k scale; IM 6.9.11
  # itself keeps the result >= 2x the given size (a 6532 px photo decodes at 3266)
  [ "$hint" = 1 ] && pre=(-define jpeg:size=1600x1600)
  "$CONVERT" "${pre[@]}" "$f" -auto-orient -strip \
    \( +clone -thumbnail '1600x1600>' -quality 80 -interlace JPEG -write "$out/$album/$b-1600.jpg" +delete \) \
    -thumbnail '400x400>' -quality 80 -interlace JPEG "$out/$album/$b-400.jpg"
}

ljt_one() {  # ljt_one OUT FILE — libjpeg-turbo alone: DCT-domain shrink + encode
  local out=$1 f=$2
  local album b; album=$(basename "$(dirname "$f")"); b=$(basename "${f%.*}")
  local o="$out/$album"; mkdir -p "$o"
  local tmp="$o/.$b.ppm" w h long m r
  case "$f" in
    *.jpg|*.jpeg|*.JPG|*.JPEG)
      read -r w h < <(rdjpgcom -verbose "$f" | sed -n 's/^JPEG image is \([0-9]*\)w \* \([0-9]*\)h.*/\1 \2/p')
      long=$(( w > h ? w : h ))
      # smallest M/8 (M=1..8) whose result is still >= 1600 on the long edge
      m=1; while [ $(( long * m / 8 )) -lt 1600 ] && [ $m -lt 8 ]; do m=$((m + 1)); done
      djpeg -scale "$m/8" -dct int "$f" > "$tmp" ;;
    *)  # PNG: decode, integer box-reduce to >= 1600
      pngtopam "$f" > "$tmp.full"
      read -r w h < <(pamfile "$tmp.full" | sed -n 's/.*, \([0-9]*\) by \([0-9]*\) .*/\1 \2/p')
      long=$(( w > h ? w : h )); r=$(( long / 1600 )); [ $r -lt 1 ] && r=1
      pamscale -reduce "$r" "$tmp.full" > "$tmp"; rm -f "$tmp.full" ;;
  esac
  cjpeg -progressive -quality 80 -optimize "$tmp" > "$o/$b-1600.jpg"
  read -r w h < <(pamfile "$tmp" | sed -n 's/.*, \([0-9]*\) by \([0-9]*\) .*/\1 \2/p')
  long=$(( w > h ? w : h )); r=$(( long / 400 )); [ $r -lt 1 ] && r=1
  pamscale -reduce "$r" "$tmp" | cjpeg -progressive -quality 80 -optimize > "$o/$b-400.jpg"
  rm -f "$tmp"
}
export -f vips_batch magick_one ljt_one
export CONVERT

# ---------------------------------------------------------------- anchors
run_anchor() {
  local name=$1 out="$OUTROOT/$1"
  case "$name" in
    *-noop) ;;                                   # keeps its prepared output
    *) rm -rf "$out" ;;
  esac
  mkdir -p "$out"
  case "$name" in
    galleryssg|galleryssg-srcset)   # cold: no state, no previous site beside the output
      rm -rf "$OUTROOT/state-$name" "$OUTROOT/.$name".*
      "$GALLERYSSG" build -q -j "$JOBS" -c "$(galleryssg_conf "$name")" -o "$out" ;;
    galleryssg-noop)   # state and site from `prep`: reads the folder and the state, changes nothing
      [ -f "$out/index.html" ] || { echo "run: $SELF prep $name first" >&2; exit 1; }
      "$GALLERYSSG" build -q -j "$JOBS" -c "$(galleryssg_conf galleryssg-noop)" -o "$out" ;;
    sigal-init|sigal-1600|sigal-1600-images)
      sigal build -q -c "$(sigal_conf "$name")" -n "$JOBS" "$CORPUS" "$out" ;;
    sigal-1600-n1)
      sigal build -q -c "$(sigal_conf sigal-1600)" -n 1 "$CORPUS" "$out" ;;
    sigal-1600-noop)   # images already there: scan + EXIF/size reads + HTML only
      [ -f "$out/index.html" ] || { echo "run: $SELF prep $name first" >&2; exit 1; }
      sigal build -q -c "$(sigal_conf sigal-1600)" -n "$JOBS" "$CORPUS" "$out" ;;
    vips-2x|vips-cascade|vips-srcset)
      batches 8 | VIPS_CONCURRENCY=1 xargs -P "$JOBS" -L 1 bash -c 'vips_batch '"${name#vips-}"' '"$out"' "$@"' _ ;;
    magick)
      images_lpt | OMP_NUM_THREADS=1 xargs -P "$JOBS" -I{} bash -c 'magick_one 0 "$1" "$2"' _ "$out" {} ;;
    magick-hint)
      images_lpt | OMP_NUM_THREADS=1 xargs -P "$JOBS" -I{} bash -c 'magick_one 1 "$1" "$2"' _ "$out" {} ;;
    ljt)
      images_lpt | xargs -P "$JOBS" -I{} bash -c 'ljt_one "$1" "$2"' _ "$out" {} ;;
    *) echo "unknown anchor $name (see: $SELF list)" >&2; exit 2 ;;
  esac
}

cmd=${1:-help}; shift || true
case "$cmd" in
  setup)
    apt-get install -y -q libvips-tools imagemagick libjpeg-turbo-progs netpbm hyperfine time
    pip install sigal ;;
  list) echo $ANCHORS ;;
  run)  run_anchor "${1:?name}" ;;
  prep)
    case "$1" in
      galleryssg-noop) rm -rf "$OUTROOT/$1" "$OUTROOT/state-$1" "$OUTROOT/.$1".*
        "$GALLERYSSG" build -q -j "$JOBS" -c "$(galleryssg_conf "$1")" -o "$OUTROOT/$1" ;;
      sigal-1600-noop) rm -rf "$OUTROOT/$1"; mkdir -p "$OUTROOT/$1"
        sigal build -q -c "$(sigal_conf sigal-1600)" -n "$JOBS" "$CORPUS" "$OUTROOT/$1" ;;
      *) echo "nothing to prepare for $1" ;;
    esac ;;
  sizes)
    d="$OUTROOT/${1:?name}"   # photo outputs (theme assets under static/ excluded)
    find "$d" -path "$d/static" -prune -o -type f \( -iname '*.jpg' -o -iname '*.png' \) -printf '%s\n' |
      awk '{ n++; b += $1 } END { printf "%d image files, %.1f MB\n", n, b/1e6 }'
    find "$d" -type f -name '*.html' -printf '%s\n' |
      awk '{ n++; b += $1 } END { if (n) printf "%d html files, %.0f kB\n", n, b/1e3 }'
    du -sb "$d" | awk '{ printf "%.1f MB in all\n", $1/1e6 }' ;;
  bench)
    names=${*:-$ANCHORS}
    for n in $names; do
      case "$n" in *-noop) "$SELF" prep "$n" >/dev/null ;; esac
      echo "== $n"
      hyperfine --warmup 1 --runs "$RUNS" --export-json "$OUTROOT/$n.hyperfine.json" \
        "$SELF run $n"
      /usr/bin/time -v "$SELF" run "$n" 2> "$OUTROOT/$n.time.txt" >/dev/null
      grep -E 'Elapsed|User time|System time|Maximum resident' "$OUTROOT/$n.time.txt"
    done ;;
  *) sed -n '2,25p' "$SELF" ;;
esac
