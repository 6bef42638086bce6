#!/usr/bin/env bash
# Lists the commits of a range (merges left out) whose subject line is over 72 characters
# (docs/contributing.md, "Commits"). Exits 1 when there is one.
#
#   Scripts/check-commits.sh [RANGE]    default: origin/main..HEAD if origin/main exists, else the last commit
set -euo pipefail
cd "$(dirname "$0")/.."

if (( $# )); then range=$1
elif git rev-parse -q --verify origin/main >/dev/null; then range=origin/main..HEAD
else range=HEAD~1..HEAD
fi

status=0
while IFS=$'\t' read -r hash subject; do
    if (( ${#subject} > 72 )); then
        echo "${hash:0:9}: subject is ${#subject} characters (at most 72; move the detail into the body): ${subject:0:72}…"
        status=1
    fi
done < <(git log --no-merges --format='%H%x09%s' "$range")
exit $status
