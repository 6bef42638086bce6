#!/usr/bin/env bash
# shards.sh — a cold build across machines, measured on one machine.
#
# Times, each as its own process with GNU time -v (wall, CPU, peak RSS), every one from no state:
#   single      galleryssg build                                  (one machine does everything)
#   shard-K     galleryssg build --images-only --shard K/$SHARDS --cache cache/   for K = 1..SHARDS,
#               one after another, each with --jobs $JOBS
#   final       galleryssg build --cache cache/                   over the same folders: the shards'
#               files keep their modification times, as on a shared volume (Kubernetes)
#   final-copy  the same in a fresh copy of the corpus with a copy of the cache (new modification
#               times, as a CI job that checks the site out and downloads the shards' artifacts):
#               every original and cached file is hashed once, nothing is decoded
# and prints the table, with the wall time the shards would take on SHARDS machines side by side:
# max(shard wall) + final wall ("on paper"), as a ratio of the single build's wall.
#
# The site mirrors anchors.sh's galleryssg job: 1600 px preview, 400 px thumbnail, q80, no
# extra widths, no published originals; 2 jobs for the single build as for each shard.
#
# env: CORPUS (default /tmp/corpus, made by make-corpus.sh), SHARDS (default 4), JOBS (default 2),
#      OUTROOT (default /tmp/shards-out), GALLERYSSG (default: the release build beside this script).
set -euo pipefail

CORPUS=${CORPUS:-/tmp/corpus}
SHARDS=${SHARDS:-4}
JOBS=${JOBS:-2}
OUTROOT=${OUTROOT:-/tmp/shards-out}
SELF=$(readlink -f "$0")
GALLERYSSG=${GALLERYSSG:-$(dirname "$SELF")/../.build/release/galleryssg}

[ -d "$CORPUS" ] || bash "$(dirname "$SELF")/make-corpus.sh" "$CORPUS"
[ -x "$GALLERYSSG" ] || { echo "no galleryssg at $GALLERYSSG; run swift build -c release --product galleryssg" >&2; exit 1; }
[ -x /usr/bin/time ] || { echo "GNU time is needed (apt-get install time)" >&2; exit 1; }

site() {  # site NAME PHOTOS [CACHE] -> a site folder $OUTROOT/NAME with its config
  local folder="$OUTROOT/$1" cache=""
  [ -n "${3:-}" ] && cache="\"cache\": \"$3\","
  mkdir -p "$folder"
  cat > "$folder/site-config.json" <<JSON
{ "title": "benchmark", "pageSize": 24, $cache
  "source": { "type": "folder", "path": "$2" },
  "images": { "thumbnail": 400, "preview": 1600, "widths": [], "quality": 80, "publishOriginals": false, "gridSteps": false } }
JSON
}

RESULTS=()
timed() {  # timed LABEL ARGS... : runs galleryssg ARGS, records "LABEL wall cpu rss"
  local label=$1; shift
  sync
  /usr/bin/time -v -o "$OUTROOT/time-$label.txt" "$GALLERYSSG" "$@" > "$OUTROOT/log-$label.txt" 2>&1 ||
    { cat "$OUTROOT/log-$label.txt" >&2; exit 1; }
  local wall cpu rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ { n = split($2, p, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + p[i]; print s }' "$OUTROOT/time-$label.txt")
  cpu=$(awk -F': ' '/User time/ { u = $2 } /System time/ { s = $2 } END { printf "%.2f", u + s }' "$OUTROOT/time-$label.txt")
  rss=$(awk -F': ' '/Maximum resident/ { printf "%d", $2 / 1024 }' "$OUTROOT/time-$label.txt")
  RESULTS+=("$label $wall $cpu $rss")
  echo "$label: wall ${wall}s, CPU ${cpu}s, peak RSS ${rss} MB — $(tail -1 "$OUTROOT/log-$label.txt")"
}

rm -rf "$OUTROOT"
mkdir -p "$OUTROOT"
site single "$CORPUS"
timed single build --config "$OUTROOT/single/site-config.json" --jobs "$JOBS" --quiet

site sharded "$CORPUS" "$OUTROOT/cache"
for k in $(seq 1 "$SHARDS"); do
  timed "shard-$k" build --config "$OUTROOT/sharded/site-config.json" --images-only --shard "$k/$SHARDS" --jobs "$JOBS" --quiet
done
timed final build --config "$OUTROOT/sharded/site-config.json" --jobs "$JOBS" --quiet

cp -r "$CORPUS" "$OUTROOT/corpus-copy"
cp -r "$OUTROOT/cache" "$OUTROOT/cache-copy"
rm -rf "$OUTROOT/cache-copy/pages"
site copied "$OUTROOT/corpus-copy" "$OUTROOT/cache-copy"
timed final-copy build --config "$OUTROOT/copied/site-config.json" --jobs "$JOBS" --quiet

same() { diff -r -q "$OUTROOT/single/public" "$OUTROOT/$1/public" > /dev/null && echo "identical" || echo "DIFFERENT"; }
echo
echo "output of the final build: $(same sharded); after copying: $(same copied)"
echo
printf '| process | wall (s) | CPU (s) | peak RSS (MB) |\n|---|---|---|---|\n'
for row in "${RESULTS[@]}"; do
  read -r label wall cpu rss <<< "$row"
  printf '| %s | %.2f | %.2f | %s |\n' "$label" "$wall" "$cpu" "$rss"
done
printf '%s\n' "${RESULTS[@]}" | awk -v shards="$SHARDS" '
  $1 == "single" { single = $2 }
  $1 ~ /^shard-/ { if ($2 > max) max = $2; cpu += $3 }
  $1 == "final" { final = $2 }
  $1 == "final-copy" { copy = $2 }
  END {
    printf "\non %d machines: max(shard wall) %.2f s + final %.2f s = %.2f s = %.3fx the single build (%.2f s)\n",
      shards, max, final, max + final, (max + final) / single, single
    printf "with the copied cache: %.2f s + %.2f s = %.2f s = %.3fx\n", max, copy, max + copy, (max + copy) / single
    printf "shards CPU together: %.2f s\n", cpu
  }'
