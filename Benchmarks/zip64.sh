#!/usr/bin/env bash
# zip64.sh — the 5 GB album zip: sparse files of 4.4 and 1 GB zipped by AlbumZipWriter (stored, Zip64),
# read back by `unzip -t`/`unzip -l` and Python's zipfile, with the writer's time and the growth of
# the test process's peak RSS (VmHWM) printed. It is the test `fiveGigabytesStreamInFlatMemoryWithZip64`
# of AlbumZipWriterTests, which the suite skips: it writes 5.4 GB and takes longer than a test should.
#
# usage: Benchmarks/zip64.sh [debug|release]   (default debug, as measured in docs/downloads.md; builds the tests first)
# needs: about 5.5 GB free in $TMPDIR (the zip is real bytes; the inputs are sparse), unzip, python3.
set -euo pipefail
cd "$(dirname "$0")/.."
config="${1:-debug}"
swift build -c "$config" --build-tests
start=$(date +%s.%N)
GALLERYSSG_ZIP64=1 /usr/bin/time -v swift test -c "$config" --disable-testable-imports --skip-build \
    --filter 'AlbumZipWriterTests/fiveGigabytesStreamInFlatMemoryWithZip64' 2>&1 \
    | grep -E 'zip64:|passed|failed|Maximum resident|Elapsed' || true
echo "wall: $(echo "$(date +%s.%N) - $start" | bc) s"
