#!/usr/bin/env python3
"""The HDR test chart of galleryssg's HDR video tests, and its measure.

`chart.py make OUT.ppm` writes the chart: the 24 patches of a ColorChecker (X-Rite's published
sRGB values, post-2014 formulation), 6 across and 4 down, 80 px each, 480x320, as a binary PPM.

`chart.py measure FRAME.rgb` reads one decoded frame of the chart (raw rgb24, 480x320, as
`ffmpeg -f rawvideo -pix_fmt rgb24` writes it), takes the mean of the middle 40x40 pixels of
each patch, and prints JSON: the CIEDE2000 difference of each patch from its known value (both
read as sRGB, D65, through colour-science), and the mean over the mid-tone patches, which are
all but the brightest (white, 243) and darkest (black, 52).
"""
import json
import sys
import warnings

import numpy as np


def colour_science():
    """colour-science, imported without its warnings that SciPy and Matplotlib are missing (unused here)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        import colour
    return colour

PATCHES = [
    (115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67), (133, 128, 177), (103, 189, 170),
    (214, 126, 44), (80, 91, 166), (193, 90, 99), (94, 60, 108), (157, 188, 64), (224, 163, 46),
    (56, 61, 150), (70, 148, 73), (175, 54, 60), (231, 199, 31), (187, 86, 149), (8, 133, 161),
    (243, 243, 242), (200, 200, 200), (160, 160, 160), (122, 122, 121), (85, 85, 85), (52, 52, 52),
]
NAMES = [
    "dark skin", "light skin", "blue sky", "foliage", "blue flower", "bluish green", "orange",
    "purplish blue", "moderate red", "purple", "yellow green", "orange yellow", "blue", "green",
    "red", "yellow", "magenta", "cyan", "white", "neutral 8", "neutral 6.5", "neutral 5",
    "neutral 3.5", "black",
]
WIDTH, HEIGHT, SIDE = 480, 320, 80
EXCLUDED = {"white", "black"}


def make(path):
    image = np.zeros((HEIGHT, WIDTH, 3), np.uint8)
    for index, value in enumerate(PATCHES):
        row, column = divmod(index, 6)
        image[row * SIDE:(row + 1) * SIDE, column * SIDE:(column + 1) * SIDE] = value
    with open(path, "wb") as out:
        out.write(b"P6 %d %d 255\n" % (WIDTH, HEIGHT) + image.tobytes())


def lab(rgb8):
    colour = colour_science()
    rgb = np.asarray(rgb8, dtype=np.float64) / 255.0
    return colour.XYZ_to_Lab(colour.sRGB_to_XYZ(rgb))


def measure(path):
    colour = colour_science()
    frame = np.fromfile(path, np.uint8)
    if frame.size != WIDTH * HEIGHT * 3:
        sys.exit(f"{path}: {frame.size} bytes, expected a {WIDTH}x{HEIGHT} rgb24 frame ({WIDTH * HEIGHT * 3})")
    frame = frame.reshape(HEIGHT, WIDTH, 3).astype(np.float64)
    found = []
    for index in range(len(PATCHES)):
        row, column = divmod(index, 6)
        top, left = row * SIDE + SIDE // 4, column * SIDE + SIDE // 4
        found.append(frame[top:top + SIDE // 2, left:left + SIDE // 2].reshape(-1, 3).mean(axis=0))
    found = np.array(found)
    delta = colour.delta_E(lab(PATCHES), lab(found), method="CIE 2000")
    mid = [d for d, name in zip(delta, NAMES) if name not in EXCLUDED]
    print(json.dumps({
        "meanMidTones": round(float(np.mean(mid)), 3),
        "maxMidTones": round(float(np.max(mid)), 3),
        "patches": {name: {"deltaE": round(float(d), 3), "found": [round(float(v), 1) for v in value]}
                    for name, d, value in zip(NAMES, delta, found)},
    }))


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "make":
        make(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "measure":
        measure(sys.argv[2])
    else:
        sys.exit("usage: chart.py make OUT.ppm | chart.py measure FRAME.rgb")
