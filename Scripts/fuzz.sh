#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers that read bytes from strangers (docs/contributing.md, "Fuzzing").
#
#   Scripts/fuzz.sh [HARNESS...]     builds Fuzz/ with libFuzzer and AddressSanitizer, then runs each
#                                    harness (default: all, riskiest first) for FUZZ_SECONDS
#   Scripts/fuzz.sh --smoke          the same, 10 seconds each from the committed seeds only, with a fixed
#                                    seed: what `make test` (and so CI) runs, so that the harnesses keep
#                                    building and finding coverage; the grown corpus is not kept
#
# FUZZ_SECONDS   seconds per harness (default 600)
# FUZZ_RSS_MB    memory limit of one run, in MB (default 2048); above it is a finding
# FUZZ_BUILD=0   skips the build (the binary in .build-fuzz is used as it is)
#
# Each harness starts from its seeds (Fuzz/Corpus/HARNESS, read only) and the corpus grown by earlier
# runs (.fuzz/corpus/HARNESS, not committed). An input that takes over 1 s is a hang; leak detection
# is on (Fuzz/lsan.supp lists the toolchain's own leaks, each with its reason). A crash, leak, hang or out-of-memory input is kept in .fuzz/findings/HARNESS/ and the libFuzzer
# log in .fuzz/logs/HARNESS.log; replay one with `.build-fuzz/debug/galleryfuzz` (see the log's last
# lines) or with `swift run galleryfuzz HARNESS FILE` in a normal build. Exits non-zero on any finding.
set -euo pipefail
cd "$(dirname "$0")/.."

smoke=0
if [[ ${1:-} == --smoke ]]; then smoke=1; shift; fi
seconds=${FUZZ_SECONDS:-$(( smoke ? 10 : 600 ))}
rss=${FUZZ_RSS_MB:-2048}
scratch=.build-fuzz
work=.fuzz
all=(jpeg-segments gps-stripper manifest iptc png-chunks image-headers jpeg-rows raw front-matter s3-xml mappers html-text config)
if (( $# )); then harnesses=("$@"); else harnesses=("${all[@]}"); fi

dictionary() {
    case $1 in
        jpeg-segments | gps-stripper | image-headers | jpeg-rows) echo jpeg ;;
        manifest | mappers | config) echo json ;;
        iptc) echo iptc ;;
        png-chunks) echo png ;;
        raw) echo raw ;;
        front-matter) echo yaml ;;
        s3-xml) echo xml ;;
        html-text) echo html ;;
        *) echo "fuzz.sh: no harness named $1; the harnesses are: ${all[*]}" >&2; exit 64 ;;
    esac
}
for harness in "${harnesses[@]}"; do dictionary "$harness" > /dev/null; done

# Foundation's XMLParser leaks on every error libxml2 reports (Fuzz/lsan.supp: its error domain string
# and what hangs off it), so under s3-xml nearly every input leaks: libFuzzer would run LeakSanitizer
# after each one (45 inputs a second instead of 1,500), and the run's memory grows by about 9 KB an
# input, 1 GB a minute. There, leaks are checked once, when a run ends, the limit is raised,
# and the harness runs in segments of at most 4 minutes, each a new process that goes on from the
# corpus the one before grew (a single 10-minute run passed 6 GB after 387 s).
options() {
    case $1 in
        s3-xml) echo "-detect_leaks=0 -rss_limit_mb=$(( rss * 3 ))" ;;
        *) echo "-detect_leaks=1 -rss_limit_mb=$rss" ;;
    esac
}
segment() {
    case $1 in
        s3-xml) echo 240 ;;
        *) echo "$seconds" ;;
    esac
}

if [[ ${FUZZ_BUILD:-1} != 0 ]]; then
    # The whole package is instrumented; -DGALLERY_FUZZING leaves out the replay tool's `main`, so that
    # libFuzzer's is the program's. SwiftPM passes swiftc `-sanitize=fuzzer -sanitize=address` as two
    # flags, and swiftc keeps only the last: the Swift code would get AddressSanitizer but no coverage
    # counters (the C code gets both). The one flag `-sanitize=fuzzer,address`, given last, keeps both.
    started=$(date +%s)
    swift build --scratch-path "$scratch" --product galleryfuzz \
        --sanitize=fuzzer --sanitize=address -Xswiftc -sanitize=fuzzer,address -Xswiftc -DGALLERY_FUZZING 2>&1 | { grep -v 'ld.gold: warning' || true; } | tail -n 3
    echo "fuzz build: $(( $(date +%s) - started )) s"
fi
binary=$scratch/debug/galleryfuzz

rows=()
failed=0
for harness in "${harnesses[@]}"; do
    mkdir -p "$work/corpus/$harness" "$work/findings/$harness" "$work/logs"
    log=$work/logs/$harness.log
    # A smoke run grows a corpus of its own, thrown away, from the seeds alone: the same start on every machine.
    corpus_dir=$work/corpus/$harness seed=()
    if (( smoke )); then corpus_dir=$(mktemp -d) seed=(-seed=1); fi
    stamp=$(mktemp)
    started=$(date +%s)
    : > "$log"
    status=0 elapsed=0
    longest=$(segment "$harness")
    while (( status == 0 && elapsed < seconds )); do
        part=$(( seconds - elapsed < longest ? seconds - elapsed : longest ))
        set +e
        FUZZ_HARNESS=$harness ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$PWD/Fuzz/lsan.supp "$binary" \
            "$corpus_dir" "Fuzz/Corpus/$harness" -dict="Fuzz/Dictionaries/$(dictionary "$harness").dict" \
            -max_total_time="$part" -timeout=1 $(options "$harness") "${seed[@]}" -print_final_stats=1 \
            -artifact_prefix="$work/findings/$harness/" >> "$log" 2>&1
        status=$?
        set -e
        elapsed=$(( $(date +%s) - started ))
    done
    executions=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -Eo '[0-9]+$' | awk '{ total += $1 } END { print total + 0 }' || true)
    # libFuzzer's corpus when the run ended: inputs/bytes (its folder also keeps inputs later reduced).
    corpus=$(grep -Eo 'corp: [0-9]+/[0-9]+[a-zA-Z]*' "$log" | tail -n 1 | cut -d' ' -f2 || true)
    count() { find "$work/findings/$harness" -name "$1-*" -newer "$stamp" | wc -l; }
    crashes=$(count crash) leaks=$(count leak) hangs=$(count timeout) ooms=$(count oom)
    rm -f "$stamp"
    if (( smoke )); then rm -rf "$corpus_dir"; fi
    verdict=ok
    if grep -q 'no interesting inputs were found' "$log"; then
        # A binary without coverage counters fuzzes blind; seen once after an incremental rebuild of .build-fuzz.
        verdict="NO COVERAGE: remove $scratch and build again"
        failed=1
    elif (( status != 0 || crashes + leaks + hangs + ooms > 0 )); then
        verdict="FOUND (exit $status): see $log and $work/findings/$harness/"
        failed=1
    fi
    rows+=("$(printf '%-14s %7s %12s %12s %7s %6s %6s %6s  %s' "$harness" "$elapsed" "$executions" "${corpus:-0}" \
        "$crashes" "$leaks" "$hangs" "$ooms" "$verdict")")
    echo "${rows[-1]}"
done

echo
printf '%-14s %7s %12s %12s %7s %6s %6s %6s  %s\n' harness seconds executions corpus crashes leaks hangs ooms verdict
printf '%s\n' "${rows[@]}"
exit "$failed"
