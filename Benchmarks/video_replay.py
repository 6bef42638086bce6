#!/usr/bin/env python3
"""Runs the ffprobe/ffmpeg commands a galleryssg build recorded (GALLERYSSG_TOOL_LOG, one JSON array
a line: the tool, then its arguments), one after another, each output path moved into a scratch
folder: ffmpeg run directly with the same arguments, for Benchmarks/video.sh."""
import json
import os
import subprocess
import sys

log, scratch = sys.argv[1], sys.argv[2]
os.makedirs(scratch, exist_ok=True)
with open(log) as handle:
    commands = [json.loads(line) for line in handle if line.strip()]
for index, command in enumerate(commands):
    tool, arguments = command[0], command[1:]
    # Inputs are given as file:PATH; every other absolute path is an output the build wrote into a
    # temporary or cache folder: here it goes into the scratch folder.
    moved = [os.path.join(scratch, f"{index}-{os.path.basename(a)}") if a.startswith("/") else a for a in arguments]
    result = subprocess.run([tool, *moved], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if result.returncode != 0:
        sys.exit(f"{tool} failed: {result.stderr.decode(errors='replace')[-500:]}")
