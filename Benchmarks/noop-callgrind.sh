#!/usr/bin/env bash
# Benchmarks/noop-callgrind.sh: instructions of one steady no-op rebuild under callgrind, for each
# binary named, on a site of N photos over 100 images (the shape of the million-photo benchmark:
# Benchmarks/incremental.sh's "big" site), and where they go.
#
#   bash Benchmarks/noop-callgrind.sh /work/bin/galleryssg-base .build/release/galleryssg
#
# Each binary builds the site cold in a folder of its own (incremental.sh, which also times two
# no-ops), then its valgrind-ready copy (valgrind-ready.sh) rebuilds it twice natively, so that the
# state holds the copy's site key, then once under callgrind with one job. That last build is the
# steady no-op: it links every page as the last build had it (checked; binaries before 5f35d09
# cannot make one under valgrind). Instruction counts repeat exactly for the same binary and site
# whatever else the machine runs.
#
# Prints, per binary, the instructions in all and the inclusive counts of the no-op's parts that
# run synchronously (the async steps' inclusive counts are not meaningful under callgrind: a task's
# frames are attributed to whatever resumed it). Needs valgrind, and swift (swift demangle) for the names.
# env: N (10000), WORK (/tmp/noop-callgrind), PORT (8802)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
N=${N:-10000} WORK=${WORK:-/tmp/noop-callgrind} PORT=${PORT:-8802}
[ $# -ge 1 ] || { sed -n 5p "$0" >&2; exit 2; }
mkdir -p "$WORK"
PARTS=(
  'ManifestDocument.read()' 'JSONDecoder.decode<' 'ManifestEntryMapper.map(' 'JSONSyntax.check('
  'PhotoPublisher.finish(' 'InputDigest.add<' 'ImageProcessor.keys(' 'StagedWriter.holds('
  'StateDatabase.photoState(' 'ItemList.Builder.append(' 'PhotoRows.forEach(' 'LiveSite.matchesList('
)
for bin in "$@"; do
  name=$(basename "$(dirname "$(readlink -f "$bin")")")-$(basename "$bin")
  site="$WORK/$name"
  # One set of generated images and manifests for every binary.
  [ -e "$WORK/www" ] && { mkdir -p "$site"; ln -sfn "$WORK/www" "$site/www"; }
  BIG=$N N=100 PARTS=big PORT=$PORT GALLERYSSG=$bin WORK="$site" bash "$HERE/incremental.sh" > "$site.log"
  [ -e "$WORK/www" ] || { mv "$site/www" "$WORK/www"; ln -sfn "$WORK/www" "$site/www"; }
  python3 -m http.server --bind 127.0.0.1 --directory "$WORK/www" "$PORT" > /dev/null 2>&1 &
  server=$!
  for _ in $(seq 50); do curl -sf "http://127.0.0.1:$PORT/manifest-big-$N.json" -o /dev/null && break; sleep 0.1; done
  bash "$HERE/valgrind-ready.sh" "$bin" "$site/vg"
  config="$site/big/site-config.json"
  for _ in 1 2; do "$site/vg/nodebug/galleryssg" build -q -j 1 -c "$config" > /dev/null; done
  LD_PRELOAD="$site/vg/sigsuspend.so" valgrind --tool=callgrind -q --callgrind-out-file="$site/noop.out" \
    "$site/vg/nodebug/galleryssg" build -q -j 1 -c "$config" --report "$site/noop.json" > /dev/null
  kill $server
  # A steady no-op links the last build's pages as they are: no page worked out, no search index
  # made. A binary older than 5f35d09 stamps valgrind's tool as its executable under callgrind, so
  # its site key never matches there and it works every page out again: not what this measures.
  python3 -c "import json, sys; r = json.load(open(sys.argv[1])); sys.exit(0 if r['pagesRendered'] == 0 and r['searchIndexSeconds'] == 0 else 'not a steady no-op: every page was worked out again (a binary before 5f35d09?)')" "$site/noop.json"
  total=$(callgrind_annotate "$site/noop.out" | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
  echo "$bin: a no-op of $N photos: $total instructions ($(( total / N )) a photo)"
  callgrind_annotate --inclusive=yes --threshold=100 "$site/noop.out" | swift demangle --simplified \
    > "$site/inclusive.txt"
  for part in "${PARTS[@]}"; do
    { grep -F -- "$part" "$site/inclusive.txt" || echo "0 $part"; } | head -n 1 | awk -v part="$part" -v t="$total" \
      '{ n = $1; gsub(",", "", n); printf "  %-28s %14s  %5.1f %%\n", part, $1, 100 * n / t }'
  done
done
