#!/usr/bin/env bash
# Benchmarks/instructions.sh: instructions executed (valgrind's callgrind) by galleryssg and by
# vips-cascade on a fixed slice of the corpus, beside the wall time of the same jobs.
#
#   bash Benchmarks/instructions.sh                                  this worktree's release build
#   GALLERYSSG=/path/to/galleryssg bash Benchmarks/instructions.sh   any other binary
#
# Wall time on a shared 2-core machine moves by tens of percent from one run to the next; the
# instruction count of the same binary on the same photos repeats within a fraction of a percent
# whatever else the machine does, so a small change shows here first.
#
# The slice: rows 1, 1+k, 1+2k, ... of $CORPUS/MANIFEST.tsv (k = rows / SLICE, rounded down),
# hard-linked into a temporary corpus. For the 134-photo corpus and SLICE=8 that is 4 native
# photos (2 of them PNG), 2 at 12 MP (one stored sideways with EXIF orientation 6) and 2 at 24 MP.
# The jobs are anchors.sh's own (`anchors.sh run galleryssg`, `anchors.sh run vips-cascade`),
# unchanged, with CORPUS set to the slice. Each job runs under
# `valgrind --tool=callgrind --trace-children=yes`; Ir (instructions) is summed over every
# process's callgrind.out file, the shells, xargs and find of the job included, as wall time
# includes them; the tool's own processes (galleryssg, vipsthumbnail) are also shown alone. A
# process that replaces itself with exec loses the count of what it ran before the exec (a
# shell's few hundred thousand instructions; galleryssg's and vips's counts are in billions).
# Then hyperfine times the same commands without valgrind (1 warm-up, RUNS runs).
#
# Ir counts user-space instructions only: not the kernel's work (page faults, reads, writes), not
# cache misses, nor how many pixels one SIMD instruction handles; so the ratio of instructions is
# not the ratio of times, and both are printed.
# JOBS=1 by default: valgrind runs one thread at a time anyway, and with one worker the count
# cannot depend on how the photos were shared between workers (JOBS=2 moved the counts by
# at most 0.004 % for galleryssg and 0.07 % for vips-cascade, 2026-11-26).
# Under valgrind galleryssg runs as a copy without its DWARF 5 debug information, which
# valgrind 3.19 cannot read (same code, and function names still come from the symbol table),
# and with valgrind-sigsuspend.c preloaded (why: in that file).
#
# env: CORPUS (/tmp/corpus), SLICE (8 photos), JOBS (1), RUNS (3 timed runs), REPEAT (1; 2 runs
#      each job twice under valgrind to show the counts repeat), ANCHORS ("galleryssg
#      vips-cascade"), TOP (10 functions of galleryssg's profile; 0 for none), KEEP (1 keeps the
#      work folder with the callgrind.out files, for callgrind_annotate or kcachegrind).
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
CORPUS=${CORPUS:-/tmp/corpus} SLICE=${SLICE:-8} JOBS=${JOBS:-1} RUNS=${RUNS:-3} REPEAT=${REPEAT:-1}
ANCHORS=${ANCHORS:-"galleryssg vips-cascade"} TOP=${TOP:-10} KEEP=${KEEP:-0}

for tool in valgrind callgrind_annotate hyperfine vipsthumbnail cc objcopy python3; do
  command -v "$tool" >/dev/null || { echo "instructions.sh needs $tool (valgrind, hyperfine, libvips-tools, gcc, binutils)" >&2; exit 1; }
done
[ -f "$CORPUS/MANIFEST.tsv" ] || bash "$HERE/make-corpus.sh" "$CORPUS"
if [ -z "${GALLERYSSG:-}" ]; then   # as run.sh does: the release build of this checkout
  (cd "$HERE/.." && swift build -c release --product galleryssg >/dev/null)
  GALLERYSSG="$HERE/../.build/release/galleryssg"
fi
GALLERYSSG=$(readlink -f "$GALLERYSSG")

W=$(mktemp -d /tmp/instructions.XXXXXX)
if [ "$KEEP" = 1 ]; then echo "work folder kept: $W"; else trap 'rm -rf "$W"' EXIT; fi

# ---- the slice
bash "$HERE/corpus-slice.sh" "$CORPUS" "$SLICE" "$W/corpus"
photos=$(($(wc -l < "$W/corpus/MANIFEST.tsv") - 1))

# ---- galleryssg as valgrind can run it: $W/vg/galleryssg
bash "$HERE/valgrind-ready.sh" "$GALLERYSSG" "$W/vg"

echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores, $(uname -r); load average: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "galleryssg: $GALLERYSSG ($("$GALLERYSSG" --version 2>&1 | head -1); sha256 $(sha256sum "$GALLERYSSG" | cut -c1-12))"
echo "$(valgrind --version); vips: $(vipsthumbnail --vips-version); jobs: $JOBS; valgrind runs per job: $REPEAT; timed runs: $RUNS"
echo "slice: $photos photos of $CORPUS, every $(( ($(wc -l < "$CORPUS/MANIFEST.tsv") - 1) / SLICE ))th row of MANIFEST.tsv:"
awk -F'\t' 'NR > 1 { mp = $3 * $4 / 1e6; t += mp; printf "  %s/%s  %dx%d  %.1f MP  %s\n", $1, $2, $3, $4, mp, $6 }
  END { printf "  %.1f MP in all\n", t }' "$W/corpus/MANIFEST.tsv"

export CORPUS="$W/corpus" OUTROOT="$W/out" JOBS
for name in $ANCHORS; do
  for r in $(seq 1 "$REPEAT"); do
    mkdir -p "$W/cg/$name.$r"
    start=$(date +%s)
    GALLERYSSG="$W/vg/galleryssg" valgrind --tool=callgrind --trace-children=yes -q \
      --callgrind-out-file="$W/cg/$name.$r/callgrind.out.%p" \
      bash "$HERE/anchors.sh" run "$name" > "$W/cg/$name.$r.stdout"
    echo "callgrind: $name, run $r: $(( $(date +%s) - start )) s under valgrind"
  done
done
for name in $ANCHORS; do
  GALLERYSSG="$GALLERYSSG" hyperfine --warmup 1 --runs "$RUNS" --export-json "$W/$name.hyperfine.json" \
    --style none "bash $HERE/anchors.sh run $name" > /dev/null
done

python3 "$HERE/instructions_report.py" "$W" "$photos" "$REPEAT" "$TOP" $ANCHORS
