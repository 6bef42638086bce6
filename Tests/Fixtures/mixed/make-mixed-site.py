#!/usr/bin/env python3
"""Makes the mixed-shape site of issue 29 in the folder given (default: ./Mixed): 40 photos in
four albums, one nested, of the shapes a real library mixes (3:2, 2:3, square and 3:1 panoramas,
with panoramas and portraits alternating where a greedy justified layout does worst), and a
site-config.json that builds it from the folder (12 photos a page, so the home grid has pages).

Every photo is a flat-coloured test card made by ffmpeg (lavfi testsrc2, a hue per photo), dated
an hour apart in its EXIF DateTimeOriginal by exiftool, so the order is the same on every machine.
With --from FOLDER (e.g. the repository's Samples/photos) each photo is instead a real JPEG of that
folder, cropped at its centre to the shape and scaled to the size: what the first-screen benchmark
(Benchmarks/first-screen.sh) weighs, since flat test cards compress far better than photos.
Run from anywhere: python3 make-mixed-site.py OUT [--from FOLDER]
"""
import json
import os
import subprocess
import sys

arguments = sys.argv[1:]
real = None
if "--from" in arguments:
    at = arguments.index("--from")
    real = sorted(os.path.join(arguments[at + 1], name) for name in os.listdir(arguments[at + 1])
                  if name.lower().endswith((".jpg", ".jpeg")))
    del arguments[at:at + 2]
out = os.path.abspath(arguments[0] if arguments else "Mixed")
library = os.path.join(out, "Photos")
SHAPES = {"pano": (1800, 600), "portrait": (800, 1200), "landscape": (1200, 800), "square": (1000, 1000)}
# Album folder (nested with "/") and the shapes of its photos, in date order.
ALBUMS = [
    ("Along the Atlantic coast at low tide, from Porto to the cliffs of Sagres", [
        "portrait", "pano", "portrait", "pano", "portrait", "pano", "landscape", "landscape",
        "square", "portrait", "pano", "portrait"]),
    ("Along the Atlantic coast at low tide, from Porto to the cliffs of Sagres/Cliffs", [
        "pano", "portrait", "portrait", "pano", "landscape", "square", "portrait", "pano"]),
    ("City", [
        "landscape", "portrait", "landscape", "landscape", "square", "portrait", "pano", "landscape",
        "portrait", "landscape"]),
    ("Hills", [
        "square", "pano", "portrait", "landscape", "portrait", "pano", "square", "landscape", "portrait", "pano"]),
]


def run(*arguments):
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL)


number = 0
for album, shapes in ALBUMS:
    folder = os.path.join(library, *album.split("/"))
    os.makedirs(folder, exist_ok=True)
    for shape in shapes:
        number += 1
        width, height = SHAPES[shape]
        path = os.path.join(folder, "%s-%02d.jpg" % (shape, number))
        hue = (number * 37) % 360
        if real:
            crop = "crop='min(iw,ih*%d/%d)':'min(ih,iw*%d/%d)',scale=%d:%d" % (width, height, height, width, width, height)
            run("ffmpeg", "-v", "error", "-y", "-i", real[number % len(real)], "-vf", crop, "-frames:v", "1", "-q:v", "2", path)
        else:
            run("ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=%dx%d:rate=1" % (width, height),
                "-vf", "hue=h=%d" % hue, "-frames:v", "1", "-q:v", "3", path)
        day, hour = divmod(number, 24)
        run("exiftool", "-q", "-overwrite_original",
            "-DateTimeOriginal=2025:06:%02d %02d:00:00" % (1 + day, hour), path)

config = {
    "title": "Mixed shapes",
    "output": "public",
    "pageSize": 12,
    "source": {"type": "folder", "path": "Photos"},
    "images": {"thumbnail": 400, "preview": 1600, "widths": [480, 800, 1200], "quality": 82},
}
with open(os.path.join(out, "site-config.json"), "w") as file:
    json.dump(config, file, indent=2)
    file.write("\n")
print(out)
