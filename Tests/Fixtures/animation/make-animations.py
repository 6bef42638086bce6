#!/usr/bin/env python3
"""Writes the animation tests' fixtures into a folder (AnimationBuildTests runs it with the test venv's Pillow).

    make-animations.py FOLDER

- bounce.gif: 320x240, 6 frames shown 0.1, 0.2, 0.1, 0.3, 0.1 and 0.2 s (1.0 s), a red square moving over a
  transparent background, disposed to the background after each frame; no metadata.
- spin.webp: the same frames and times as a lossless animated WebP.
- small.gif: 96x72, 4 frames of 0.1 s, no metadata: small enough to be kept as it is.
- long.gif: 160x120, 30 frames of 0.1 s (3.0 s), for the duration cap.
- still.gif: 160x120, one frame.
"""
import sys
from pathlib import Path

from PIL import Image, ImageDraw


def frames(size, count, colour=(220, 20, 20, 255)):
    width, height = size
    made = []
    for index in range(count):
        image = Image.new("RGBA", size, (0, 0, 0, 0))
        side = height // 3
        left = (index * (width - side)) // max(count - 1, 1)
        ImageDraw.Draw(image).rectangle([left, side, left + side - 1, 2 * side - 1], fill=colour)
        made.append(image)
    return made


def main(folder):
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    times = [100, 200, 100, 300, 100, 200]
    bounce = frames((320, 240), len(times))
    bounce[0].save(folder / "bounce.gif", save_all=True, append_images=bounce[1:], duration=times, loop=0, disposal=2)
    bounce[0].save(folder / "spin.webp", save_all=True, append_images=bounce[1:], duration=times, loop=0, lossless=True)
    small = frames((96, 72), 4)
    small[0].save(folder / "small.gif", save_all=True, append_images=small[1:], duration=100, loop=0, disposal=2)
    long = frames((160, 120), 30)
    long[0].save(folder / "long.gif", save_all=True, append_images=long[1:], duration=100, loop=0, disposal=2)
    frames((160, 120), 1)[0].save(folder / "still.gif")


if __name__ == "__main__":
    main(sys.argv[1])
