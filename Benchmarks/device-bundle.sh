#!/usr/bin/env bash
# Packs a release galleryssg for a bare many-core Linux machine that has no Swift and no -dev packages.
#   run from the project root after `swift build -c release`:  bash Benchmarks/device-bundle.sh
# Writes .build/device/ (ignored by git): bundle.tar.xz (stripped binary + every shared library it
# needs except glibc's own), seeds/ (9 real photos from the benchmark corpus) and scale.sh.
# Copy .build/device to the many-core machine (in the same place under the project root) and run:
#   bash .build/device/scale.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=.build/release/galleryssg
[ -x "$bin" ] || { echo "build first: swift build -c release" >&2; exit 1; }
out=.build/device; stage=$(mktemp -d)/bundle
rm -rf "$out"; mkdir -p "$out/seeds" "$stage/lib"
cp "$bin" "$stage/galleryssg"; strip "$stage/galleryssg"
ldd "$bin" | awk '$3 ~ /^\// {print $3}' \
  | grep -vE '/(libc|libm|libpthread|libdl|librt|libgcc_s|libstdc\+\+)\.so|ld-linux' \
  | while read -r lib; do cp -L "$lib" "$stage/lib/"; done
tar cJf "$out/bundle.tar.xz" -C "$(dirname "$stage")" bundle
corpus=${CORPUS:-/tmp/corpus}
[ -d "$corpus/a-native" ] || bash "$here/make-corpus.sh" "$corpus" >/dev/null
for f in 01-Kleiber 02-seeding 03-Dragonfly 04-sunset 05-Bridge 06-Wine 07-picosdeeuropa 08-life 10-friends; do
  cp "$corpus/a-native/$f.jpg" "$out/seeds/"
done
cp "$here/device-scale.sh" "$out/scale.sh"
du -sh "$out"
echo "now: copy .build/device to the many-core machine and run 'bash .build/device/scale.sh' there"
