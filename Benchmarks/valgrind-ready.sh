#!/usr/bin/env bash
# Benchmarks/valgrind-ready.sh: a galleryssg binary as valgrind 3.19 (Debian 12) can run it, for
# the scripts that count instructions (instructions.sh, resampler-callgrind.sh, side-by-side.sh).
#
#   bash Benchmarks/valgrind-ready.sh BINARY FOLDER
#
# Writes into FOLDER:
#   nodebug/galleryssg  a copy without its DWARF 5 debug information, which valgrind 3.19 cannot
#                       read (the same code; function names still come from the symbol table);
#   sigsuspend.so       valgrind-sigsuspend.c, to preload (why: in that file);
#   galleryssg          a wrapper that runs the copy with the shim preloaded, for jobs that call
#                       galleryssg by name (run them under valgrind --trace-children=yes).
set -euo pipefail
[ $# = 2 ] || { sed -n 5p "$0" >&2; exit 2; }
mkdir -p "$2"
F=$(cd "$2" && pwd)
mkdir -p "$F/nodebug"   # the copy keeps the name galleryssg, which the reports match
objcopy --strip-debug "$1" "$F/nodebug/galleryssg"
cc -O2 -shared -fPIC -o "$F/sigsuspend.so" "$(dirname "$0")/valgrind-sigsuspend.c"
printf '#!/bin/sh\nLD_PRELOAD=%s exec %s "$@"\n' "$F/sigsuspend.so" "$F/nodebug/galleryssg" > "$F/galleryssg"
chmod +x "$F/galleryssg"
