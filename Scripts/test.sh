#!/usr/bin/env bash
# Runs the test suite (swift test, with the arguments given: make test's TEST_ARGS) and fails when
# the compiler warned about the project's own code (Sources/, Tests/, Fuzz/; not the dependencies
# in .build/checkouts). The count of such warnings is kept at 0: a warning can hide a defect, as an
# ignored result of a write did. Only files compiled in this run are seen, so on a clean clone (as
# CI builds) every file is.
set -euo pipefail
cd "$(dirname "$0")/.."

mkdir -p .build
log=.build/test-output.log
swift test -c release --disable-testable-imports "$@" 2>&1 | tee "$log"

root=$(pwd)
warnings=$(grep -E "^${root}/(Sources|Tests|Fuzz)/[^:]+\.swift:[0-9]+:[0-9]+: warning:" "$log" | sort -u || true)
if [ -n "$warnings" ]; then
    echo
    echo "test.sh: the compiler warned about the project's own code ($(printf '%s\n' "$warnings" | wc -l)):"
    printf '%s\n' "$warnings"
    echo "test.sh: fix each warning (the house keeps 0); the tests themselves ran as shown above"
    exit 1
fi
echo "test.sh: 0 compiler warnings in Sources/, Tests/ and Fuzz/"
