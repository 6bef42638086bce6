#!/usr/bin/env bash
# Benchmarks/incremental.sh: incremental builds of a generated manifest served over loopback.
#
#   Benchmarks/incremental.sh          generate the photos and manifests if needed, build galleryssg in
#                                      release mode, serve them with python3 -m http.server on
#                                      127.0.0.1, time the builds below with GNU time, print a table
#
# Builds, each a separate `galleryssg build` process:
#   cold        N photos (default 10,000), N distinct 160x120 JPEGs: every download, decode, encode, page
#   no-op       the same again, nothing changed (target: < 1.5 s and < 5 % of cold). The first
#               rebuild after a cold build starts its staging folder empty and links every file;
#               later ones start from the previous site (the steady state), which hyperfine then
#               times 10 more times (median and range), since one run on a shared machine is noisy
#   one changed one photo gets a new title and a new image (target: < 3 s)
#   big cold    BIG photos (default 100,000) over BIG_IMAGES (default 100) distinct images: 100,000
#               photo pages, 4,167 grid pages and 200,000 derivative links (target: peak RSS < 500 MB)
#   big no-op   the same again, twice (the first starts its staging folder empty)
#   big template the same after a site template override appears: every page rendered again
#   half cold   BIG/2 photos, to show how peak memory grows with the number of photos
#   peers       sigal (if installed) and galleryssg on the same N images as a local folder, each
#               built cold once, then their no-op rebuilds timed side by side by hyperfine. sigal
#               cannot read a remote manifest, so this is the fair ground for a ratio
#
#   distinct    only with DISTINCT set (say DISTINCT=100000): that many photos, each its own image,
#               cold and no-op. Every photo then has its own originals, derivatives, facts and
#               placeholder in the state, as in a real library; generating the images takes minutes
#
# env: N, BIG, BIG_IMAGES, DISTINCT (default 0: skipped), WORK (default /tmp/galleryssg-incremental),
#      PORT (default 8765), JOBS (2),
#      PARTS (default small,half,big,template,peers): the parts to run, say PARTS=big for the big
#      cold and no-op builds alone (BIG=1000000 PARTS=big is the million-photo run),
#      GALLERYSSG (default: this checkout, built in release mode): another binary to time, say a
#      build of main, for a side-by-side run (give each its own WORK),
#      NOOP_GALLERYSSG (default: GALLERYSSG): the binary for the big no-ops, so a cold build made by
#      one binary is rebuilt by another (the same state and site formats).
# Needs python3 with Pillow (pip install pillow) to make the images, GNU time (/usr/bin/time) and
# hyperfine (apt-get install hyperfine).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
N=${N:-10000} BIG=${BIG:-100000} BIG_IMAGES=${BIG_IMAGES:-100} DISTINCT=${DISTINCT:-0}
WORK=${WORK:-/tmp/galleryssg-incremental} PORT=${PORT:-8765} JOBS=${JOBS:-2}
PARTS=",${PARTS:-small,half,big,template,peers},"
part() { [[ $PARTS == *",$1,"* ]]; }
WWW="$WORK/www"

[ -x /usr/bin/time ] || { echo "needs GNU time: apt-get install time" >&2; exit 1; }
command -v hyperfine >/dev/null || { echo "needs hyperfine: apt-get install hyperfine" >&2; exit 1; }
python3 -c 'import PIL' 2>/dev/null || pip install -q pillow

# ------------------------------------------------------------------ inputs
if [ ! -f "$WWW/manifest-$N.json" ] || [ ! -f "$WWW/manifest-big-$BIG.json" ] \
   || { [ "$DISTINCT" -gt 0 ] && [ ! -f "$WWW/manifest-distinct-$DISTINCT.json" ]; }; then
  echo "generating $(( N > DISTINCT ? N : DISTINCT )) images and manifests in $WWW"
  mkdir -p "$WWW/img"
  python3 - "$WWW" "$N" "$BIG" "$BIG_IMAGES" "$DISTINCT" <<'PY'
import json, os, random, sys
from PIL import Image, ImageDraw
www, n, big, big_images, distinct = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
def image(path, seed):
    if os.path.exists(path): return
    rng = random.Random(seed)
    picture = Image.new("RGB", (160, 120), tuple(rng.randrange(256) for _ in range(3)))
    draw = ImageDraw.Draw(picture)
    for _ in range(6):
        x, y = rng.randrange(160), rng.randrange(120)
        draw.ellipse((x, y, x + rng.randrange(20, 80), y + rng.randrange(20, 60)), fill=tuple(rng.randrange(256) for _ in range(3)))
    picture.save(path, "JPEG", quality=85)
for i in range(max(n, distinct)):
    image(f"{www}/img/{i}.jpg", i)
image(f"{www}/img/changed.jpg", 10**9)  # a seed no photo uses (random seeds with abs(n))
def entry(i, img):
    return {"id": f"p{i:06d}", "title": f"Photo {i}", "description": f"Generated photo number **{i}**.",
            "author": "Bench Mark", "tags": ["generated", f"group-{i % 50}"], "license": "CC0-1.0", "image": f"img/{img}.jpg"}
def write(name, entries):
    with open(f"{www}/{name}", "w") as out: json.dump({"photos": entries}, out)
write(f"manifest-{n}.json", [entry(i, i) for i in range(n)])
changed = [entry(i, i) for i in range(n)]
changed[n // 2]["title"] = "A changed photo"
changed[n // 2]["image"] = "img/changed.jpg"
write(f"manifest-{n}-changed.json", changed)
write(f"manifest-big-{big}.json", [entry(i, i % big_images) for i in range(big)])
write(f"manifest-big-{big // 2}.json", [entry(i, i % big_images) for i in range(big // 2)])
if distinct:
    write(f"manifest-distinct-{distinct}.json", [entry(i, i) for i in range(distinct)])
PY
fi

if [ -z "${GALLERYSSG:-}" ]; then
  (cd "$HERE/.." && swift build -c release --product galleryssg >/dev/null)
  GALLERYSSG="$HERE/../.build/release/galleryssg"
fi
NOOP_GALLERYSSG=${NOOP_GALLERYSSG:-$GALLERYSSG}

python3 -m http.server --bind 127.0.0.1 --directory "$WWW" "$PORT" >/dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/manifest-$N.json" -o /dev/null && break; sleep 0.1; done

site() {  # site NAME MANIFEST -> writes $WORK/NAME/site-config.json
  mkdir -p "$WORK/$1"
  cat > "$WORK/$1/site-config.json" <<JSON
{ "title": "incremental benchmark", "pageSize": 24,
  "source": { "type": "manifest", "url": "http://127.0.0.1:$PORT/$2" },
  "images": { "thumbnail": 64, "preview": 160, "widths": [], "quality": 80, "gridSteps": false },
  "network": { "maxDownloadBytes": 268435456 } }
JSON
}

RESULTS="$WORK/results.tsv"
: > "$RESULTS"
timed() {  # timed LABEL SITE [BINARY]: one build, timed by GNU time; appends wall, CPU, RSS and the summary
  local label=$1 dir="$WORK/$2" binary=${3:-$GALLERYSSG}
  sync   # the previous build's writes are flushed first, so they are not charged to this one
  /usr/bin/time -v -o "$dir/time.txt" "$binary" build --config "$dir/site-config.json" --jobs "$JOBS" --quiet \
    --report "$dir/report.json" > "$dir/out.txt"
  python3 - "$label" "$dir" >> "$RESULTS" <<'PY'
import json, re, sys
label, folder = sys.argv[1], sys.argv[2]
text = open(f"{folder}/time.txt").read()
wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (\S+)", text).group(1).split(":")
seconds = sum(float(part) * 60 ** index for index, part in enumerate(reversed(wall)))
field = lambda name: float(re.search(name + r"[^:]*: ([0-9.]+)", text).group(1))
report = json.load(open(f"{folder}/report.json"))
print("\t".join([label, f"{seconds:.2f}", f"{field('User time') + field('System time'):.2f}",
                 f"{field('Maximum resident set size') / 1024:.0f}", str(report["photosPublished"]), str(report["pages"]),
                 f"{report['derivativesMade']} made, {report['derivativesReused']} reused",
                 f"{report['pagesRendered']} rendered"]))
PY
  tail -n 1 "$RESULTS" | cut -f1-4
  { echo "== $label ($(date -u +%FT%TZ), $binary)"; cat "$dir/time.txt"; } >> "$WORK/time-v.log"   # the raw GNU time output
}

# The small site always reads manifest-small.json; its content is swapped between builds, so the
# source (and so the state's rows) stays the same.
if part small; then
site small "manifest-small.json"
cp "$WWW/manifest-$N.json" "$WWW/manifest-small.json"
rm -rf "$WORK/small/.galleryssg" "$WORK/small/public" "$WORK/small/.public."*
timed "cold, $N photos" small
timed "no-op, $N photos" small
timed "no-op again, $N photos" small
hyperfine -N -w 1 -r 10 --prepare sync --export-json "$WORK/noop.json" \
  "$GALLERYSSG build --config $WORK/small/site-config.json --jobs $JOBS --quiet" >/dev/null
python3 - "$WORK/noop.json" "$N" >> "$RESULTS" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))["results"][0]
times = sorted(run["times"])
print("\t".join([f"no-op x10, {sys.argv[2]} photos (median; range {times[0]:.2f}-{times[-1]:.2f} s)",
                 f"{run['median']:.2f}", f"{run['user'] + run['system']:.2f}", "-", sys.argv[2], "-", "-", "-"]))
PY
tail -n 1 "$RESULTS" | cut -f1-4
cp "$WWW/manifest-$N-changed.json" "$WWW/manifest-small.json"
timed "one changed of $N" small
cp "$WWW/manifest-$N.json" "$WWW/manifest-small.json"
timed "one changed back of $N" small
fi

if part half; then
site half "manifest-big-$((BIG / 2)).json"
rm -rf "$WORK/half/.galleryssg" "$WORK/half/public" "$WORK/half/.public."*
timed "cold, $((BIG / 2)) photos ($BIG_IMAGES images)" half
fi
site big "manifest-big-$BIG.json"
if part big; then
  rm -rf "$WORK/big/.galleryssg" "$WORK/big/public" "$WORK/big/.public."* "$WORK/big/Templates"
  timed "cold, $BIG photos ($BIG_IMAGES images)" big
  timed "no-op, $BIG photos" big "$NOOP_GALLERYSSG"
  timed "no-op again, $BIG photos" big "$NOOP_GALLERYSSG"
fi
if part template; then
  # A site template override that differs from the built-in one: every page is rendered again.
  mkdir -p "$WORK/big/Templates"
  { cat "$HERE/../Templates/404.mustache"; echo "<!-- a changed template -->"; } > "$WORK/big/Templates/404.mustache"
  timed "template changed, $BIG photos" big
  rm -rf "$WORK/big/Templates"
fi

if [ "$DISTINCT" -gt 0 ]; then
  site distinct "manifest-distinct-$DISTINCT.json"
  rm -rf "$WORK/distinct/.galleryssg" "$WORK/distinct/public" "$WORK/distinct/.public."*
  timed "cold, $DISTINCT distinct photos" distinct
  timed "no-op, $DISTINCT distinct photos" distinct
  timed "no-op again, $DISTINCT distinct photos" distinct
fi

# ------------------------------------------------------------------ peers, side by side
if ! part peers; then
  :
elif command -v sigal >/dev/null; then
  PEERS="$WORK/peers"
  mkdir -p "$PEERS/src/photos"
  for i in $(seq 0 $((N - 1))); do [ -e "$PEERS/src/photos/$i.jpg" ] || ln "$WWW/img/$i.jpg" "$PEERS/src/photos/$i.jpg"; done
  cat > "$PEERS/sigal.conf.py" <<'CONF'
theme = "galleria"
img_size = (160, 160)
thumb_size = (64, 64)
thumb_fit = False
img_format = "JPEG"
jpg_options = {"quality": 80, "optimize": True, "progressive": True}
CONF
  mkdir -p "$PEERS/galleryssg"
  cat > "$PEERS/galleryssg/site-config.json" <<JSON
{ "title": "incremental benchmark", "pageSize": 24, "source": { "type": "folder", "path": "$PEERS/src" },
  "images": { "thumbnail": 64, "preview": 160, "widths": [], "quality": 80, "gridSteps": false } }
JSON
  rm -rf "$PEERS/sigal-out" "$PEERS/galleryssg/public" "$PEERS/galleryssg/.galleryssg" "$PEERS/galleryssg/.public."*
  SIGAL="sigal build -q -c $PEERS/sigal.conf.py -n $JOBS $PEERS/src $PEERS/sigal-out"
  FOLDER="$GALLERYSSG build --config $PEERS/galleryssg/site-config.json --jobs $JOBS --quiet"
  hyperfine -N -r 1 --prepare sync --export-json "$PEERS/cold.json" "$SIGAL" "$FOLDER" >/dev/null
  $FOLDER   # once more, so its staging folder starts from the previous site, as in normal use
  hyperfine -N -w 1 -r 10 --prepare sync --export-json "$PEERS/noop.json" "$SIGAL" "$FOLDER" >/dev/null
  python3 - "$PEERS" "$N" >> "$RESULTS" <<'PY'
import json, sys
folder, n = sys.argv[1], sys.argv[2]
for kind, label in (("cold", "cold"), ("noop", "no-op x10")):
    runs = json.load(open(f"{folder}/{kind}.json"))["results"]
    for run, tool in zip(runs, ("sigal", "galleryssg, folder source")):
        print("\t".join([f"{label}, {n} images: {tool}", f"{run['median']:.2f}", f"{run['user'] + run['system']:.2f}",
                         "-", n, "-", "-", "-"]))
PY
  tail -n 4 "$RESULTS" | cut -f1-3
else
  echo "sigal is not installed (pip install sigal): no side-by-side rows"
fi

echo
echo "| build | wall (s) | CPU (s) | peak RSS (MB) | photos | pages | images | pages rendered |"
echo "|---|---|---|---|---|---|---|---|"
while IFS=$'\t' read -r label wall cpu rss photos pages images rendered; do
  echo "| $label | $wall | $cpu | $rss | $photos | $pages | $images | $rendered |"
done < "$RESULTS"
