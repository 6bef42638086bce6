#!/usr/bin/env bash
# Checks every Swift file against .swift-format (line length 120; `swift format lint --strict`), as
# `make test` does first, and that no `package` declaration goes unused outside its target
# (Scripts/package-access.py). `Scripts/lint.sh --fix` rewrites the files instead (`swift format format`).
# The two generated files are left out: their tests compare them with their generators' output
# (Scripts/embed-theme.sh, Scripts/embed-schema.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
# The tracked files in a clone; every Swift file under the project's folders in a copy without git.
swift_files() {
    if git rev-parse --is-inside-work-tree > /dev/null 2>&1; then git ls-files '*.swift'
    else find Package.swift Sources Tests Fuzz -name '*.swift' | sort; fi
}
mapfile -t files < <(swift_files | grep -v -e '^Sources/GalleryRender/Theme/DefaultTheme+Files.swift$' \
    -e '^Sources/GalleryConfig/SiteConfigSchema.swift$')
if [[ ${1:-} == --fix ]]; then
    swift format format --in-place --parallel "${files[@]}"
else
    swift format lint --strict --parallel "${files[@]}"
    # `package` only where another target, a test or a fuzz harness uses the name (docs/contributing.md,
    # "Access"); the script lists the others and exits 1 while there are any.
    if command -v python3 > /dev/null; then python3 Scripts/package-access.py
    else echo "lint: no python3, so the package-access check did not run (Scripts/setup.sh installs it)" >&2; fi
fi
