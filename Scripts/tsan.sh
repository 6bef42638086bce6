#!/usr/bin/env bash
# Runs every test but the browser checks under ThreadSanitizer, in a debug build of its own
# (.build-tsan), and fails on any report, even when every test passed.
#
#   Scripts/tsan.sh            (make tsan runs it through Scripts/setup.sh test, for exiftool and moto)
#
# The whole test binary is instrumented, dependencies included. TSan runs code 5 to 15 times slower,
# so the tests that wait on a loopback server get GALLERYSSG_TEST_SLOWDOWN=10, which the test
# support multiplies their time limits by. TSAN_OPTIONS: halt_on_error=0 lists every report, and
# Tests/tsan-suppressions.txt names the one report that is in a dependency, with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
log=$(mktemp)
swift build --build-tests --sanitize=thread --scratch-path .build-tsan
status=0
GALLERYSSG_TEST_SLOWDOWN=${GALLERYSSG_TEST_SLOWDOWN:-10} \
TSAN_OPTIONS="halt_on_error=0 history_size=4 suppressions=$PWD/Tests/tsan-suppressions.txt ${TSAN_OPTIONS:-}" \
    swift test --skip-build --sanitize=thread --scratch-path .build-tsan \
    --skip BrowserTests --skip ViewerBrowserTests --skip MapSearchBrowserTests 2>&1 | tee "$log" || status=$?
reports=$(grep -c '^WARNING: ThreadSanitizer' "$log" || true)
echo "ThreadSanitizer: $reports reports"
grep '^SUMMARY: ThreadSanitizer' "$log" | sed 's/ in \$.*//' | sort | uniq -c || true
rm -f "$log"
[ "$status" -eq 0 ] && [ "$reports" -eq 0 ]
