#!/usr/bin/env bash
# Benchmarks/side-by-side.sh: two galleryssg binaries in one run, for a change meant to cost nothing
# (a refactoring): the same site, the same instructions, the same no-op.
#
#   bash Benchmarks/side-by-side.sh BASE NEW     say a build of main and this checkout's
#
# 1. The sample site, built cold by each: byte for byte the same? (Benchmarks/same-output.sh)
# 2. A cold build of the corpus slice: instructions (valgrind's callgrind) and wall time of each
#    (Benchmarks/instructions.sh with ANCHORS=galleryssg).
# 3. A no-op rebuild of N generated photos (default 10,000, Benchmarks/incremental.sh's "small"
#    site, built cold by each binary in a folder of its own): instructions of one steady no-op of
#    each, one job, under callgrind. Wall time on this shared machine moves by tens of percent from
#    run to run; instructions repeat within a fraction of a percent, so they are what the verdict
#    compares (within 3 %). incremental.sh's own table (wall, CPU, RSS) is in its log.
# 4. The cold build of the whole corpus (anchors.sh's galleryssg job), base and new alternating
#    ROUNDS times under GNU time: wall and CPU medians of each.
#
# env: N (10000), PORT (8797), ROUNDS (5), STEPS ("1 2 3 4": the comparisons to run), WORK (a new
#      folder under /tmp, kept: its path is printed), and instructions.sh's CORPUS and SLICE.
set -euo pipefail
[ $# = 2 ] || { sed -n 2,4p "$0" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=$(readlink -f "$1") NEW=$(readlink -f "$2")
N=${N:-10000} PORT=${PORT:-8797} ROUNDS=${ROUNDS:-5} STEPS=" ${STEPS:-1 2 3 4} "
step() { [[ $STEPS == *" $1 "* ]]; }
W=${WORK:-$(mktemp -d /tmp/side-by-side.XXXXXX)}
mkdir -p "$W"
echo "date: $(date -u +%FT%TZ); machine: $(nproc) cores; load: $(cut -d' ' -f1-3 /proc/loadavg); work: $W"
echo "base: $BASE (sha256 $(sha256sum "$BASE" | cut -c1-12)); new: $NEW (sha256 $(sha256sum "$NEW" | cut -c1-12))"

if step 1; then
  echo; echo "## 1. the sample site"
  bash "$HERE/same-output.sh" "$BASE" "$NEW" || true
fi

if step 2; then
  echo; echo "## 2. a cold build of the corpus slice"
  for bin in "$BASE" "$NEW"; do
    GALLERYSSG=$bin ANCHORS=galleryssg RUNS=3 TOP=0 bash "$HERE/instructions.sh" | grep -E '^\| galleryssg|^Ir:'
  done
fi

if step 4; then
  echo; echo "## 4. the cold build of the whole corpus, alternating, $ROUNDS rounds"
  for round in $(seq "$ROUNDS"); do
    for side in base new; do
      bin=$BASE; [ $side = new ] && bin=$NEW
      OUTROOT="$W/anchors-$side" GALLERYSSG=$bin /usr/bin/time -f "$side %e %U %S" -a -o "$W/corpus-times.txt" \
        bash "$HERE/anchors.sh" run galleryssg > /dev/null 2>&1
    done
  done
  python3 - "$W/corpus-times.txt" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
med = {}
for side in ("base", "new"):
    walls = [float(r[1]) for r in rows if r[0] == side]
    cpus = [float(r[2]) + float(r[3]) for r in rows if r[0] == side]
    med[side] = (statistics.median(walls), statistics.median(cpus))
    print(f"{side}: wall {' '.join(f'{w:.2f}' for w in walls)} s (median {med[side][0]:.2f}); "
          f"CPU median {med[side][1]:.2f} s")
print(f"corpus cold build, new / base: wall {med['new'][0] / med['base'][0]:.3f}, CPU {med['new'][1] / med['base'][1]:.3f}")
PY
fi

step 3 || exit 0
echo; echo "## 3. a no-op of $N photos"
for side in base new; do
  bin=$BASE; [ $side = new ] && bin=$NEW
  [ -e "$W/www" ] && { mkdir -p "$W/$side"; ln -sfn "$W/www" "$W/$side/www"; }
  N=$N BIG=1000 PARTS=small PORT=$PORT GALLERYSSG=$bin WORK="$W/$side" bash "$HERE/incremental.sh" > "$W/$side.log" 2>&1
  [ -e "$W/www" ] || { mv "$W/$side/www" "$W/www"; ln -sfn "$W/www" "$W/$side/www"; }
  grep -E '^\| (cold|no-op x10)' "$W/$side.log" | sed "s/^/$side: /"
done
python3 -m http.server --bind 127.0.0.1 --directory "$W/www" "$PORT" > /dev/null 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null || true' EXIT
for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/manifest-small.json" -o /dev/null && break; sleep 0.1; done
declare -A IR
for side in base new; do
  bin=$BASE; [ $side = new ] && bin=$NEW
  bash "$HERE/valgrind-ready.sh" "$bin" "$W/vg-$side"   # a copy valgrind 3.19 can run
  config="$W/$side/small/site-config.json"
  "$W/vg-$side/nodebug/galleryssg" build -q -j 1 -c "$config" > /dev/null   # the steady state
  LD_PRELOAD="$W/vg-$side/sigsuspend.so" valgrind --tool=callgrind -q --callgrind-out-file="$W/$side.noop.out" \
    "$W/vg-$side/nodebug/galleryssg" build -q -j 1 -c "$config" > /dev/null
  IR[$side]=$(callgrind_annotate "$W/$side.noop.out" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
  echo "$side: no-op of $N photos: Ir ${IR[$side]}"
done
python3 -c "import sys; b, n = map(int, sys.argv[1:]); print(f'no-op instructions, new / base: {n / b:.4f}', '(within 3 %)' if abs(n / b - 1) <= 0.03 else '(NOT within 3 %)')" "${IR[base]}" "${IR[new]}"
