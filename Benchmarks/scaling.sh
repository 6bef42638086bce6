#!/usr/bin/env bash
# scaling.sh — multi-core scaling on this machine: galleryssg -j 1, 2, 4, 8, 16 (up to nproc) against
# Python + Pillow with draft() shrink-on-load in a multiprocessing Pool of the same size, on the same
# photos: N photos of 24 MP (default 160) made from 9 seed photos of the benchmark corpus with grain,
# each turned into a 1600 px preview and a 400 px thumbnail, q80 progressive. Every galleryssg row
# starts from no state. Prints wall, CPU and peak RSS per row, then the report's peak jobs and
# pixels of the widest run.
#
# usage: bash Benchmarks/scaling.sh            (after `swift build -c release`)
#        bash Benchmarks/scaling.sh serial     what would not scale to 16 cores, simulated here (below)
# env:   N (photos), JOBS (list, default 1 2 4 … up to nproc), CORPUS (default /tmp/corpus, made by
#        make-corpus.sh when missing), GALLERYSSG (default .build/release/galleryssg)
# Needs: python3 with Pillow and numpy (Debian python3-pil python3-numpy).
# On a many-core machine without Swift, use device-bundle.sh and device-scale.sh instead.
#
# `serial`: where no many-core machine is lent, the serial share by simulation on two cores. The
# corpus cold build (anchors.sh's galleryssg job on all of $CORPUS: 1600 preview, 400 thumbnail, q80,
# pages included) runs pinned to one core (taskset -c 0, -j 1) and to two (taskset -c 0,1, -j 2),
# RUNS times each (default 3), alternating, every run from no state; the medians of wall time and of
# each step's seconds (the report's stepSeconds) give each step's parallel fraction, p = 2 (T1 - T2) / T1
# (Amdahl with two points). The 16-core estimate then adds, per step, T1 (1 - p) + T1 p / 16; for the
# images step it adds the pool's last round, simulated by giving the corpus's photos, in the order the
# build starts them, to 16 workers as each frees up, each photo costing its megapixels (decoding
# dominates, and it reads the whole file whatever the DCT scale), and the cores' slowdown when all
# are busy (INFLATE, default 0.15: CPU time grew 7-23 % from 1 to 16 jobs on the lent machines of
# 2026-11-26, Benchmarks/results/device-scale-2026-11-26.log). On a shared machine the two-core
# runs are noisy: read the per-run lines before the estimate. env: RUNS, INFLATE, CORES (16).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
bin=${GALLERYSSG:-$root/.build/release/galleryssg}
[ -x "$bin" ] || { echo "build first: swift build -c release" >&2; exit 1; }
corpus=${CORPUS:-/tmp/corpus}
[ -d "$corpus/a-native" ] || bash "$here/make-corpus.sh" "$corpus" >/dev/null
if [ "${1:-}" = serial ]; then
  w=$(mktemp -d /tmp/scaling-serial.XXXXXX); trap 'rm -rf "$w"' EXIT
  cat > "$w/conf.json" <<JSON
{ "title": "benchmark", "pageSize": 24, "state": "$w/state",
  "source": { "type": "folder", "path": "$corpus" },
  "images": { "thumbnail": 400, "preview": 1600, "widths": [], "quality": 80, "publishOriginals": false, "gridSteps": false } }
JSON
  echo "machine: $(nproc) cores; load average $(cut -d' ' -f1-3 /proc/loadavg); $(date -u '+%Y-%m-%d %H:%M UTC'); $bin"
  for r in $(seq "${RUNS:-3}"); do
    for cores in 0 0,1; do
      j=$(( ${#cores} / 2 + 1 ))
      rm -rf "$w/state" "$w/out" "$w"/.out.*
      /usr/bin/time -f '%e %U %S' -o "$w/time" taskset -c "$cores" "$bin" build -q -j "$j" -c "$w/conf.json" \
        -o "$w/out" --report "$w/report-$j-$r.json" > /dev/null
      echo "$j $(cat "$w/time")" > "$w/time-$j-$r"
    done
  done
  python3 - "$w" "$corpus/MANIFEST.tsv" "${RUNS:-3}" "${INFLATE:-0.15}" "${CORES:-16}" <<'PY'
import json, statistics, sys
w, manifest, runs, inflate, cores = sys.argv[1], sys.argv[2], int(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
def load(j):
    out = []
    for r in range(1, runs + 1):
        report = json.load(open(f"{w}/report-{j}-{r}.json"))
        wall, user, system = map(float, open(f"{w}/time-{j}-{r}").read().split()[1:])
        out.append((wall, user + system, report["stepSeconds"], report["photosPublished"], report["pages"]))
        print(f"  run {r}, -j {j} on {j} core(s): wall {wall:.2f} s, CPU {user + system:.2f} s, steps "
              + ", ".join(f"{k} {v:.2f}" for k, v in sorted(report["stepSeconds"].items(), key=lambda kv: -kv[1]) if v >= 0.01))
    return out
one, two = load(1), load(2)
wall1, wall2 = statistics.median(r[0] for r in one), statistics.median(r[0] for r in two)
steps = sorted(set().union(*(r[2] for r in one + two)))
med = lambda runs, s: statistics.median(r[2].get(s, 0.0) for r in runs)
# The photos in the order the build starts them (album by album, as the folder source lists them),
# each costing its megapixels; 16 workers each take the next photo as they free up.
rows = [line.rstrip("\n").split("\t") for line in open(manifest)][1:]
costs = [int(r[2]) * int(r[3]) / 1e6 for r in sorted(rows, key=lambda r: (r[0], r[1]))]
free = [0.0] * cores
for cost in costs:
    i = free.index(min(free)); free[i] += cost
tail = max(free) / (sum(costs) / cores)
print(f"\n{one[0][3]} photos, {one[0][4]} pages; medians of {runs} runs: -j 1 {wall1:.2f} s, -j 2 {wall2:.2f} s "
      f"(speed-up {wall1 / wall2:.2f}, efficiency {wall1 / wall2 / 2:.0%})")
print(f"the pool's last round at {cores} workers on these photos: the busiest worker has {tail:.3f}x the mean")
print(f"\n| step | -j 1 (s) | -j 2 (s) | parallel fraction p | at {cores} cores, est. (s) |\n|---|---|---|---|---|")
total16 = 0.0
for s in steps:
    t1, t2 = med(one, s), med(two, s)
    if t1 < 0.005: continue
    p = max(0.0, min(1.0, 2 * (t1 - t2) / t1))
    t16 = t1 * (1 - p) + t1 * p / cores * ((1 + inflate) * (tail if s == "images" else 1))
    total16 += t16
    print(f"| {s} | {t1:.2f} | {t2:.2f} | {p:.2f} | {t16:.2f} |")
other = wall1 - sum(med(one, s) for s in steps)
total16 += max(0.0, other)
print(f"| outside the steps (start, exit) | {other:.2f} | {wall2 - sum(med(two, s) for s in steps):.2f} | 0 | {max(0.0, other):.2f} |")
serial = sum(med(one, s) * (1 - max(0.0, min(1.0, 2 * (med(one, s) - med(two, s)) / med(one, s)))) for s in steps if med(one, s) >= 0.005) + max(0.0, other)
print(f"\nserial share at -j 1: {serial / wall1:.1%} ({serial:.2f} of {wall1:.2f} s)")
print(f"estimate at {cores} cores: {total16:.2f} s, speed-up {wall1 / total16:.1f}, parallel efficiency {wall1 / total16 / cores:.0%} "
      f"(assumes: the two-core runs' p holds at {cores}; the cores {inflate:.0%} slower when all are busy; photo cost by megapixels)")
PY
  exit 0
fi
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
