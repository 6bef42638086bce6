#!/usr/bin/env bash
# Benchmarks/hdr-video.sh: how HDR clips are tone-mapped, chosen by measure.
#
#   Benchmarks/hdr-video.sh     make the test chart (Tests/HDR/chart.py: 24 ColorChecker patches) as
#                               10-bit HEVC HLG and PQ clips, as HDRVideoTests makes them; for each
#                               candidate filter chain print the mean and largest CIEDE2000 of the
#                               mid-tone patches of its poster frame, and the sRGB values it gives a
#                               ramp of highlights at 0.5x to 4.9x diffuse white (203 to 1000 nits);
#                               then time the web-file encode without and with the chosen tone map
#                               on the chart clip and on a 1080p 3 s HLG clip (hyperfine)
#
# env: OUT (default /tmp/hdr-video-bench), PYTHON (python3 with numpy and colour-science: the test
# venv's, .build/test-venv/bin/python3, which Scripts/setup.sh test makes), RUNS (5).
# "before" is what galleryssg did before it tone-mapped (the frame scaled and read as RGB); the
# chosen chain is VideoToneMap's. libplacebo is tried too: it needs a Vulkan device.
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-/tmp/hdr-video-bench} RUNS=${RUNS:-5}
PYTHON=${PYTHON:-$HERE/../.build/test-venv/bin/python3}
CHART="$HERE/../Tests/HDR/chart.py"
command -v ffmpeg >/dev/null && command -v hyperfine >/dev/null || { echo "needs ffmpeg and hyperfine (Debian: ffmpeg hyperfine)" >&2; exit 1; }
"$PYTHON" -c 'import colour, numpy' || { echo "needs $PYTHON with numpy and colour-science (Scripts/setup.sh test)" >&2; exit 1; }
mkdir -p "$OUT" && cd "$OUT"
"$PYTHON" "$CHART" make chart.ppm
"$PYTHON" - <<'PY'
import numpy as np
ramp = np.zeros((3, 80, 480), np.float32)
for i, level in enumerate([0.5, 1, 1.5, 2, 3, 4.926]):
    ramp[:, :, i * 80:(i + 1) * 80] = level
ramp.tofile("ramp.raw")
PY
for t in arib-std-b67 smpte2084; do
  signal="t=$t:p=bt2020:m=bt2020nc:r=tv:npl=203,format=yuv420p10le"
  tags=(-c:v libx265 -x265-params log-level=error -crf 12 -color_primaries bt2020 -color_trc "$t" -colorspace bt2020nc)
  ffmpeg -v error -y -loop 1 -framerate 25 -i chart.ppm -t 1 -vf "zscale=tin=iec61966-2-1:pin=bt709:min=gbr:rin=full:$signal" "${tags[@]}" "chart-$t.mov"
  ffmpeg -v error -y -f rawvideo -pix_fmt gbrpf32le -s 480x80 -r 25 -i ramp.raw -t 1 -vf "zscale=tin=linear:pin=bt709:$signal" "${tags[@]}" "ramp-$t.mov"
done
to_srgb="zscale=t=iec61966-2-1:r=full,format=gbrp,format=rgb24"
linear() { echo "zscale=t=linear:npl=$1,format=gbrpf32le,zscale=p=bt709"; }
chains=(
  "before|format=rgb24"
  "clip npl=203|$(linear 203),tonemap=clip:desat=0,$to_srgb"
  "hable npl=100|$(linear 100),tonemap=hable:desat=0,$to_srgb"
  "hable npl=203|$(linear 203),tonemap=hable:desat=0,$to_srgb"
  "reinhard npl=100|$(linear 100),tonemap=reinhard:desat=0,$to_srgb"
  "reinhard npl=203|$(linear 203),tonemap=reinhard:desat=0,$to_srgb"
  "mobius npl=100|$(linear 100),tonemap=mobius:desat=0,$to_srgb"
  "mobius 0.3 npl=203 peak 1000|$(linear 203),tonemap=mobius:param=0.3:desat=0:peak=4.9261,$to_srgb"
  "mobius 0.5 npl=203 peak 1000 (chosen)|$(linear 203),tonemap=mobius:param=0.5:desat=0:peak=4.9261,$to_srgb"
  "mobius 0.7 npl=203 peak 1000|$(linear 203),tonemap=mobius:param=0.7:desat=0:peak=4.9261,$to_srgb"
  "libplacebo|libplacebo=colorspace=bt709:color_primaries=bt709:color_trc=iec61966-2-1,format=rgb24"
)
printf '| chain | HLG mean / max ΔE2000 | PQ mean / max ΔE2000 | highlights 0.5x..4.9x (HLG, sRGB green) |\n|---|---|---|---|\n'
for entry in "${chains[@]}"; do
  name=${entry%%|*} chain=${entry#*|} row="| $name |"
  for t in arib-std-b67 smpte2084; do
    if ffmpeg -v error -y -i "chart-$t.mov" -frames:v 1 -vf "$chain" -f rawvideo frame.rgb 2>err.txt; then
      row+=" $("$PYTHON" "$CHART" measure frame.rgb | "$PYTHON" -c 'import json, sys; d = json.load(sys.stdin); print("%.2f / %.2f" % (d["meanMidTones"], d["maxMidTones"]))') |"
    else
      row+=" fails: $(tail -1 err.txt) |"
    fi
  done
  if ffmpeg -v error -y -i ramp-arib-std-b67.mov -frames:v 1 -vf "$chain" -f rawvideo ramp.rgb 2>/dev/null; then
    row+=" $("$PYTHON" -c 'import numpy as np; a = np.fromfile("ramp.rgb", np.uint8).reshape(80, 480, 3); print(" ".join(str(a[40, i * 80 + 40, 1]) for i in range(6)))') |"
  else
    row+=" - |"
  fi
  echo "$row"
done
ffmpeg -v error -y -f lavfi -i testsrc2=size=1920x1080:rate=30:duration=3 -vf "zscale=tin=iec61966-2-1:pin=bt709:min=bt709:rin=full:t=arib-std-b67:p=bt2020:m=bt2020nc:r=tv:npl=203,format=yuv420p10le" \
  -c:v libx265 -preset ultrafast -x265-params log-level=error -color_primaries bt2020 -color_trc arib-std-b67 -colorspace bt2020nc hlg-1080p.mov
tonemap="zscale=tin=arib-std-b67:pin=bt2020:min=bt2020nc:rin=limited:t=linear:npl=203,format=gbrpf32le,zscale=p=bt709,tonemap=mobius:param=0.5:desat=0:peak=4.9261,zscale=t=bt709:m=bt709:r=limited,format=yuv420p"
for clip in chart-arib-std-b67.mov:480:320 hlg-1080p.mov:1920:1080; do
  IFS=: read -r file w h <<< "$clip"
  common="ffmpeg -v error -nostdin -y -i file:$file -map 0:v:0 -an -c:v libx264 -preset medium -crf 23 -maxrate 8000000 -bufsize 16000000 -profile:v high -threads 8"
  hyperfine -N -w 1 -r "$RUNS" -n "$file as before" "$common -vf scale=$w:$h:flags=lanczos,format=yuv420p -f mp4 $OUT/before.mp4" \
    -n "$file tone-mapped" "$common -vf scale=$w:$h:flags=lanczos,$tonemap -color_primaries bt709 -color_trc bt709 -colorspace bt709 -f mp4 $OUT/after.mp4"
done
