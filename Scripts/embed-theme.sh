#!/usr/bin/env bash
# Embeds Templates/ into the binary: regenerates Sources/GalleryRender/Theme/DefaultTheme+Files.swift.
# Run after editing anything in Templates/; `swift test` fails while the two differ.
set -euo pipefail
cd "$(dirname "$0")/.."
swift run -q EmbedTheme Templates Sources/GalleryRender/Theme/DefaultTheme+Files.swift
echo "embedded $(find Templates -type f | wc -l) theme files"
