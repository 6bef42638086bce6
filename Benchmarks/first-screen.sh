#!/usr/bin/env bash
# Benchmarks/first-screen.sh: what the first screen of the mixed-shape site shows and costs, with and
# without AVIF, at a throttled phone profile and on a desktop (Benchmarks/first_screen.py).
#
#   Benchmarks/first-screen.sh     make the 40-photo mixed site from the samples (Tests/Fixtures/mixed),
#                                  build it twice with galleryssg in release mode (images.avif false,
#                                  then true) and print one table: grid row heights, rows taller than
#                                  half the screen, the first screen's photo share, its bytes, FCP, LCP and CLS
#
# env: OUT (default /tmp/first-screen), RUNS (3 loads for the FCP and LCP medians, the worst CLS).
# Needs ffmpeg and exiftool (the fixture maker), and the test venv (Scripts/setup.sh test).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT="$HERE/.."
OUT=${OUT:-/tmp/first-screen} RUNS=${RUNS:-3}
(cd "$ROOT" && swift build -c release --product galleryssg >/dev/null)
GALLERYSSG="$ROOT/.build/release/galleryssg"
[ -d "$OUT/site/Photos" ] || python3 "$ROOT/Tests/Fixtures/mixed/make-mixed-site.py" "$OUT/site" --from "$ROOT/Samples/photos" >/dev/null
sites=()
for avif in false true; do
  python3 - "$OUT/site/site-config.json" "$avif" <<'PY'
import json, sys
path, avif = sys.argv[1], sys.argv[2] == "true"
config = json.load(open(path))
config["images"]["avif"] = avif
config["output"] = "public-avif" if avif else "public"
json.dump(config, open(path, "w"), indent=2)
PY
  (cd "$OUT/site" && "$GALLERYSSG" build -q >/dev/null)
  sites+=(--site "$([ "$avif" = true ] && echo "AVIF on" || echo "AVIF off")=$OUT/site/$([ "$avif" = true ] && echo public-avif || echo public)")
done
echo "mixed site: 40 photos (3:2, 2:3, 1:1, 3:1) cut from Samples/photos; $(chromium --version 2>/dev/null); $(date -u +%F)"
PATH="$ROOT/.build/test-venv/bin:$PATH" python3 "$HERE/first_screen.py" "${sites[@]}" --runs "$RUNS"
