#!/usr/bin/env bash
# Benchmarks/corpus-slice.sh: N photos of the benchmark corpus spread evenly over its MANIFEST.tsv
# (every k-th row, k = photos / N), linked (or copied across file systems) into DEST with their own
# MANIFEST.tsv. instructions.sh and codec-floor.sh count instructions on the same slice this way.
#
#   bash Benchmarks/corpus-slice.sh CORPUS N DEST
set -euo pipefail
[ $# = 3 ] || { sed -n 5p "$0" >&2; exit 2; }
CORPUS=$1 SLICE=$2 DEST=$3
mkdir -p "$DEST"
awk -F'\t' -v n="$SLICE" 'NR == 1 { print; next } { row[NR - 2] = $0 }
  END { k = int((NR - 1) / n); if (k < 1) k = 1
        for (i = 0; i < n && i * k < NR - 1; i++) print row[i * k] }' \
  "$CORPUS/MANIFEST.tsv" > "$DEST/MANIFEST.tsv"
while IFS=$'\t' read -r tier file _; do
  mkdir -p "$DEST/$tier"
  ln "$CORPUS/$tier/$file" "$DEST/$tier/" 2>/dev/null || cp "$CORPUS/$tier/$file" "$DEST/$tier/"
done < <(tail -n +2 "$DEST/MANIFEST.tsv")
