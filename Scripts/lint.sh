#!/usr/bin/env bash
# Checks every Swift file against .swift-format (line length 120; `swift format lint --strict`), as
# `make test` does first. `Scripts/lint.sh --fix` rewrites the files instead (`swift format format`).
# The two generated files are left out: their tests compare them with their generators' output
# (Scripts/embed-theme.sh, Scripts/embed-schema.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift' | grep -v -e '^Sources/GalleryRender/DefaultTheme+Files.swift$' \
    -e '^Sources/GalleryConfig/SiteConfigSchema.swift$')
if [[ ${1:-} == --fix ]]; then
    swift format format --in-place --parallel "${files[@]}"
else
    swift format lint --strict --parallel "${files[@]}"
fi
