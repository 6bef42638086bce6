#!/usr/bin/env bash
# Benchmarks/same-output.sh: whether two galleryssg binaries publish the same sample site, byte for byte.
#
#   bash Benchmarks/same-output.sh BASE NEW     two galleryssg binaries (say a build of main and this one)
#
# Each binary builds the repository's sample site (site-config.json, Samples/) cold, in a folder of
# its own, with the same --jobs; then the two sites are compared file by file (`diff -r`). The
# site's marker (.galleryssg-site), which names the build and its time, is left out; its file list
# (.galleryssg-files) is compared. Checked to tell apart: an older binary against today's differs in
# _headers, the file list and more (2026-11-26).
# A refactoring that is meant to change no behaviour should print "identical"; anything else is
# listed. Exit status 0 when identical, 1 when not.
#
# env: JOBS (2), WORK (a new folder under /tmp; removed at the end unless KEEP=1).
set -euo pipefail
[ $# = 2 ] || { sed -n 2,4p "$0" >&2; exit 2; }
HERE=$(cd "$(dirname "$0")/.." && pwd)
JOBS=${JOBS:-2} KEEP=${KEEP:-0}
W=${WORK:-$(mktemp -d /tmp/same-output.XXXXXX)}
[ "$KEEP" = 1 ] || trap 'rm -rf "$W"' EXIT

build() {  # $1 label, $2 binary
  mkdir -p "$W/$1"
  cp "$HERE/site-config.json" "$W/$1/"
  cp -r "$HERE/Samples" "$W/$1/"
  "$2" build -q -j "$JOBS" -c "$W/$1/site-config.json" > "$W/$1.log" 2>&1 \
    || { echo "$1 ($2) failed to build:" >&2; cat "$W/$1.log" >&2; exit 2; }
}
build base "$1"
build new "$2"
if diff -r -x '.galleryssg-site*' "$W/base/public" "$W/new/public" > "$W/diff.txt"; then
  echo "identical: $(find "$W/new/public" -type f ! -name '.galleryssg-site*' | wc -l) files ($1 and $2)"
else
  echo "different ($1 and $2):"
  head -n 40 "$W/diff.txt"
  exit 1
fi
