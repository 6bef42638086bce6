#!/usr/bin/env python3
"""instructions_report.py WORK PHOTOS REPEAT TOP NAME...: the tables of instructions.sh.

WORK holds cg/NAME.R/callgrind.out.PID (one file per process of run R of job NAME) and
NAME.hyperfine.json. Prints markdown: instructions per photo and wall time per job, their ratio,
how far the valgrind runs of one job differ, and the TOP functions of galleryssg's process by
inclusive and by self instructions.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

TOOLS = ("galleryssg", "vipsthumbnail")   # the tool's own processes, beside the shells


def processes(folder):
    """(command, Ir) of every process that wrote a callgrind.out file in folder."""
    out = []
    for f in sorted(Path(folder).glob("callgrind.out.*")):
        cmd, ir = "", None
        for line in f.open(errors="replace"):
            if line.startswith("cmd:"):
                cmd = line[4:].strip()
            elif line.startswith(("summary:", "totals:")):
                ir = int(line.split()[1])
                break
        out.append((cmd, ir or 0, f))
    return out


def own(cmd):
    return os.path.basename(cmd.split(" ", 1)[0]) in TOOLS


def profile(path, inclusive):
    """[(Ir, percent, function, library)] from callgrind_annotate, Swift names demangled."""
    args = ["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100", str(path)]
    text = subprocess.run(args, capture_output=True, text=True, check=True).stdout
    if shutil.which("swift-demangle"):
        text = subprocess.run(["swift-demangle", "--simplified"], input=text,
                              capture_output=True, text=True, check=True).stdout
    rows, started = [], False
    for line in text.splitlines():
        if "file:function" in line:
            started = True
            continue
        m = re.match(r"\s*([\d,]+) \(\s*([\d.]+)%\)\s+(.*)$", line) if started else None
        if not m:
            continue
        where, lib = m.group(3), ""
        if where.endswith("]") and " [" in where:
            where, lib = where[:-1].rsplit(" [", 1)
        function = where.split(":", 1)[1] if ":" in where else where
        if re.fullmatch(r"0x[0-9a-f]+", function):   # Debian's libturbojpeg keeps no names of its internals
            function = f"{function} (no symbol)"
        rows.append((int(m.group(1).replace(",", "")), float(m.group(2)), function, os.path.basename(lib)))
    return rows


def by_library(rows):
    """Self Ir summed per library (galleryssg's own code, statically linked, is galleryssg)."""
    libs = {}
    for ir, pct, _, lib in rows:
        libs[lib] = libs.get(lib, 0) + ir
    return sorted(libs.items(), key=lambda kv: -kv[1])


def main():
    work, photos, repeat, top, names = Path(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), sys.argv[5:]
    runs = {n: [processes(work / "cg" / f"{n}.{r}") for r in range(1, repeat + 1)] for n in names}
    wall = {n: json.load(open(work / f"{n}.hyperfine.json"))["results"][0]["median"] for n in names}
    total = {n: sum(ir for _, ir, _ in runs[n][0]) for n in names}

    print(f"\n| job | Ir, all processes | Ir per photo | of which the tool's own | processes | median wall (s) | wall per photo (ms) |")
    print("|---|---|---|---|---|---|---|")
    for n in names:
        tool = sum(ir for cmd, ir, _ in runs[n][0] if own(cmd))
        print(f"| {n} | {total[n] / 1e9:.2f} G | {total[n] / photos / 1e9:.3f} G | {tool / total[n]:.1%} "
              f"| {len(runs[n][0])} | {wall[n]:.2f} | {wall[n] / photos * 1e3:.0f} |")
    if "galleryssg" in names and "vips-cascade" in names:
        print(f"\ngalleryssg / vips-cascade: instructions {total['galleryssg'] / total['vips-cascade']:.2f}x, "
              f"wall time {wall['galleryssg'] / wall['vips-cascade']:.2f}x ({photos} photos)")

    print()
    for n in names:   # exact totals, to compare with another run of this script
        totals = [sum(ir for _, ir, _ in run) for run in runs[n]]
        spread = (max(totals) - min(totals)) / min(totals)
        print(f"Ir: {n}: {', '.join(f'{t:,}' for t in totals)}"
              + (f"; largest difference between the runs {spread:.4%}" if repeat > 1 else ""))

    if top > 0 and "galleryssg" in names:
        ours = [(ir, f) for cmd, ir, f in runs["galleryssg"][0] if own(cmd)]
        if ours:
            path = max(ours)[1]
            for inclusive in (True, False):
                kind = "inclusive Ir (the function and all it calls), its own code only" if inclusive else "self Ir (the function's own instructions)"
                print(f"\ngalleryssg's top {top} functions by {kind}, % of its process's Ir:\n")
                print("| Ir | % | function | library |\n|---|---|---|---|")
                rows = profile(path, inclusive)
                if inclusive:
                    # Threads, tasks and their recursion cycles (start_thread'2) wrap everything; the
                    # stages are galleryssg's own functions, and of a chain of wrappers with one
                    # count only the innermost is worth a row.
                    rows = [r for r in rows if r[3] == "galleryssg"]
                    rows = [r for i, r in enumerate(rows) if i + 1 == len(rows) or rows[i + 1][0] < r[0] * 0.999]
                for ir, pct, function, lib in rows[:top]:
                    function = function.replace("|", "\\|")
                    function = function if len(function) <= 100 else function[:97] + "..."
                    print(f"| {ir / 1e9:.2f} G | {pct:.1f} | `{function}` | {lib} |")
            whole = max(ours)[0]
            print(f"\ngalleryssg's process by library (self Ir):\n\n| library | Ir | % |\n|---|---|---|")
            for lib, ir in by_library(profile(path, False))[:top]:
                print(f"| {lib or '?'} | {ir / 1e9:.2f} G | {ir / whole:.1%} |")


if __name__ == "__main__":
    main()
