#!/usr/bin/env bash
# Benchmarks/serve-load.sh: `galleryssg serve` under load, beside `python3 -m http.server`, on loopback.
#
# Builds the sample site, serves the same folder with both servers, and runs wrk (64 connections,
# 2 threads, DURATION seconds) against a photo page and a 1600 px image on each. Prints requests per
# second, p99 latency and errors. Only 127.0.0.1 is ever contacted; both servers are stopped at the end.
#
# env: DURATION (default 20), PORT (default 8181; the Python server uses PORT+1)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/.." && pwd)
DURATION=${DURATION:-20}
PORT=${PORT:-8181}
if ! command -v wrk >/dev/null; then
  [ "$(id -u)" = 0 ] && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null || { echo "need wrk (apt-get install wrk)" >&2; exit 1; }
fi
(cd "$ROOT" && swift build -c release --product galleryssg >/dev/null)
BIN="$ROOT/.build/release/galleryssg"
SITE=$(mktemp -d /tmp/serve-load.XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$SITE"' EXIT
"$BIN" build -q -c "$ROOT/site-config.json" -o "$SITE/public" >/dev/null

"$BIN" serve -c "$ROOT/site-config.json" -o "$SITE/public" --port "$PORT" > "$SITE/serve.log" 2>&1 &
python3 -m http.server "$((PORT + 1))" --bind 127.0.0.1 --directory "$SITE/public" > "$SITE/python.log" 2>&1 &
for port in "$PORT" "$((PORT + 1))"; do
  for _ in $(seq 50); do curl -sf -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.2; done
done

page=/photos/kite/index.html
image=/photos/kite/$(cd "$SITE/public/photos/kite" && ls 1600x*.jpg | head -n 1)
echo "wrk -t2 -c64 -d${DURATION}s on 127.0.0.1; page $page ($(stat -c %s "$SITE/public$page") B), image $image ($(stat -c %s "$SITE/public$image") B)"
echo
echo "| server | target | requests/s | p99 latency | errors |"
echo "|---|---|---|---|---|"
for server in galleryssg python; do
  port=$PORT; [ "$server" = python ] && port=$((PORT + 1))
  for target in page image; do
    path=$page; [ "$target" = image ] && path=$image
    out=$(wrk -t2 -c64 -d"${DURATION}s" --latency "http://127.0.0.1:$port$path")
    rps=$(awk '/^Requests\/sec/ {print $2}' <<< "$out")
    p99=$(awk '$1 == "99%" {print $2}' <<< "$out")
    non2xx=$(awk -F': ' '/Non-2xx/ {print $2}' <<< "$out")
    sock=$(grep -o 'Socket errors:.*' <<< "$out" || true)
    echo "| $server | $target | $rps | $p99 | ${non2xx:-0} non-2xx${sock:+; $sock} |"
  done
done
