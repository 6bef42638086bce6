#!/usr/bin/env bash
# Benchmarks/video.sh: galleryssg's clips against ffmpeg run directly with the same commands.
#
#   Benchmarks/video.sh            make the clips, build galleryssg in release mode, time a cold build
#                                  of the clips against the same ffprobe/ffmpeg commands run one
#                                  after another by hand, then a no-op rebuild, and print a table
#
# env: OUT (default /tmp/video-bench), CLIPS (6), SECONDS_EACH (6), SIZE (1280x720), JOBS (2), RUNS (3).
# Half the clips are 10-bit HEVC as Android phones record them (encoded again, with x264), half
# are 8-bit H.264/AAC as iPhones record them (copied into an MP4). The commands are the ones the
# build itself ran: a first build records them (GALLERYSSG_TOOL_LOG), and video_replay.py runs
# each in turn with its output files moved to a scratch folder. What galleryssg adds is the
# poster's image derivatives, the pages and the orchestration; the target is at most 1.05x.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/video-bench} CLIPS=${CLIPS:-6} SECONDS_EACH=${SECONDS_EACH:-6} SIZE=${SIZE:-1280x720}
JOBS=${JOBS:-2} RUNS=${RUNS:-3}
command -v ffmpeg >/dev/null && command -v hyperfine >/dev/null || { echo "needs ffmpeg and hyperfine (Debian: ffmpeg hyperfine)" >&2; exit 1; }
(cd "$HERE/.." && swift build -c release --product galleryssg >/dev/null)
GALLERYSSG="$HERE/../.build/release/galleryssg"

site="$OUT/site"
mkdir -p "$site/clips"
for i in $(seq 1 "$CLIPS"); do
  clip="$site/clips/clip-$i"
  if [ $((i % 2)) = 1 ]; then
    [ -f "$clip.mp4" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=size=$SIZE:rate=30:duration=$SECONDS_EACH" -f lavfi -i "sine=f=$((200 + i * 50)):d=$SECONDS_EACH" \
      -c:v libx265 -x265-params log-level=error -pix_fmt yuv420p10le -tag:v hvc1 -c:a aac "$clip.mp4"
  else
    [ -f "$clip.mov" ] || ffmpeg -v error -y -f lavfi -i "testsrc2=size=$SIZE:rate=30:duration=$SECONDS_EACH" -f lavfi -i "sine=f=$((200 + i * 50)):d=$SECONDS_EACH" \
      -c:v libx264 -preset fast -pix_fmt yuv420p -c:a aac "$clip.mov"
  fi
done
echo '{"title": "Clips", "source": {"type": "folder", "path": "clips"}}' > "$site/site-config.json"

# The commands a cold build runs, recorded once.
rm -rf "$site/public" "$site/.galleryssg"
(cd "$site" && GALLERYSSG_TOOL_LOG="$OUT/tools.jsonl" "$GALLERYSSG" build -q -j "$JOBS" >/dev/null)
echo "clips: $CLIPS x $SECONDS_EACH s at $SIZE; $(wc -l < "$OUT/tools.jsonl") ffprobe/ffmpeg runs; jobs: $JOBS; runs: $RUNS; $(nproc) cores"

hyperfine --runs "$RUNS" --export-json "$OUT/cold.json" \
  --prepare "rm -rf '$site/public' '$site/.galleryssg'" -n galleryssg-cold "cd '$site' && '$GALLERYSSG' build -q -j $JOBS" \
  --prepare "rm -rf '$OUT/direct'" -n ffmpeg-direct "python3 '$HERE/video_replay.py' '$OUT/tools.jsonl' '$OUT/direct'"
(cd "$site" && "$GALLERYSSG" build -j "$JOBS" | tail -1)
hyperfine --runs 10 --warmup 1 --export-json "$OUT/noop.json" -n galleryssg-noop "cd '$site' && '$GALLERYSSG' build -q -j $JOBS"
made=$(cd "$site" && "$GALLERYSSG" build -j "$JOBS" | sed -n 's/.* images (\([0-9]*\) made.*/\1/p' | tail -1)

python3 - "$OUT" "$made" <<'PY'
import json, sys
out, made = sys.argv[1], sys.argv[2]
cold = {r["command"]: r["median"] for r in json.load(open(f"{out}/cold.json"))["results"]}
noop = json.load(open(f"{out}/noop.json"))["results"][0]["median"]
g, d = cold["galleryssg-cold"], cold["ffmpeg-direct"]
print(f"| run | median s | vs ffmpeg direct |")
print(f"|---|---|---|")
print(f"| ffmpeg direct (same commands, one after another) | {d:.2f} | 1.00x |")
print(f"| galleryssg build, cold | {g:.2f} | {g / d:.3f}x |")
print(f"| galleryssg build, no-op ({made} files made) | {noop:.3f} | {noop / g * 100:.1f} % of cold |")
PY
