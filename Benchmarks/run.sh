#!/usr/bin/env bash
# Benchmarks/run.sh: galleryssg against sigal and vipsthumbnail, side by side, on a real corpus.
#
#   Benchmarks/run.sh              build the corpus if needed, install the peers if needed (root),
#                                  build galleryssg in release mode, time every tool, print a table
#   ANCHORS="galleryssg vips-cascade" Benchmarks/run.sh     time a subset
#
# env: CORPUS (default /tmp/corpus), OUTROOT (default /tmp/anchors-out), JOBS (2), RUNS (3).
# The corpus comes from Debian's wallpaper packages (make-corpus.sh: 134 files, 1.3-24 MP); the
# anchors and their job definitions are in anchors.sh, shared with the team's peer measurements.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
export CORPUS=${CORPUS:-/tmp/corpus} OUTROOT=${OUTROOT:-/tmp/anchors-out} JOBS=${JOBS:-2} RUNS=${RUNS:-3}
ANCHORS=${ANCHORS:-"galleryssg vips-cascade sigal-1600 galleryssg-srcset vips-srcset"}

if [ "$(id -u)" = 0 ]; then
  if ! command -v vipsthumbnail >/dev/null || ! command -v hyperfine >/dev/null || [ ! -x /usr/bin/time ]; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libvips-tools hyperfine time >/dev/null
  fi
  command -v sigal >/dev/null || pip install -q sigal
  python3 -c "import numpy, scipy, PIL" 2>/dev/null || pip install -q numpy scipy pillow
fi
[ -f "$CORPUS/MANIFEST.tsv" ] || bash "$HERE/make-corpus.sh" "$CORPUS"
(cd "$HERE/.." && swift build -c release --product galleryssg >/dev/null)
export GALLERYSSG="$HERE/../.build/release/galleryssg"
files=$(find "$CORPUS" -mindepth 2 -type f \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.png' \) | wc -l)
echo "corpus: $files photos in $CORPUS; jobs: $JOBS; runs: $RUNS; $(nproc) cores"

mkdir -p "$OUTROOT"
bash "$HERE/anchors.sh" bench $ANCHORS

python3 - "$OUTROOT" "$files" $ANCHORS <<'PY'
import json, re, sys
root, files, names = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
rows = []
for name in names:
    median = json.load(open(f"{root}/{name}.hyperfine.json"))["results"][0]["median"]
    text = open(f"{root}/{name}.time.txt").read()
    field = lambda label: float(re.search(label + r"[^:]*: ([0-9.]+)", text).group(1))
    rows.append((name, median, files / median, field("User time") + field("System time"),
                 field("Maximum resident set size") / 1024))
by_name = {row[0]: row for row in rows}
print()
print("| tool | median wall (s) | photos/s | CPU (s) | peak RSS (MB) | wall vs galleryssg |")
print("|---|---|---|---|---|---|")
for name, median, rate, cpu, rss in rows:
    ref = by_name.get("galleryssg-srcset" if "srcset" in name else "galleryssg")
    ratio = f"{median / ref[1]:.2f}x" if ref else "n/a"
    print(f"| {name} | {median:.2f} | {rate:.1f} | {cpu:.1f} | {rss:.0f} | {ratio} |")
print()
def target(ours, peer, limit):
    if ours in by_name and peer in by_name:
        share = by_name[ours][1] / by_name[peer][1]
        verdict = "met" if share <= limit else "NOT met"
        print(f"target: {ours} at most {limit:.2f}x the time of {peer}: {share:.3f}x, {verdict}")
target("galleryssg", "vips-cascade", 0.95)
target("galleryssg-srcset", "vips-srcset", 0.75)
for name in ("galleryssg", "galleryssg-srcset"):
    if name in by_name:
        rss = by_name[name][4]
        print(f"target: {name} peak RSS under 300 MB: {rss:.0f} MB, {'met' if rss < 300 else 'NOT met'}")
PY

# Quality: the 1600 px previews against a full decode + Lanczos3 reference (SSIM >= 0.985).
echo
python3 "$HERE/quality.py" "$GALLERYSSG" "$CORPUS" | tail -n 1 || echo "quality target NOT met"
